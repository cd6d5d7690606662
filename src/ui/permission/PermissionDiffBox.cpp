#include "PermissionDiffBox.h"

#include <QEvent>
#include <QTextBlock>

using namespace Qt::StringLiterals;

namespace qcode {
namespace {

// How far a line's background leans from the base colour to green or red:
// enough to see at a glance, little enough to read the text on it.
constexpr float TintStrength = 0.22f;
constexpr float HunkTintStrength = 0.12f;

QColor tinted(const QColor &base, const QColor &tint, float strength)
{
    return QColor::fromRgbF(base.redF() + (tint.redF() - base.redF()) * strength,
                            base.greenF() + (tint.greenF() - base.greenF()) * strength,
                            base.blueF() + (tint.blueF() - base.blueF()) * strength);
}

} // namespace

PermissionDiffBox::PermissionDiffBox(int maximumLines, QWidget *parent)
    : DetailBox(maximumLines, parent)
{
    // A diff's columns mean something; long lines scroll sideways.
    setLineWrapMode(QPlainTextEdit::NoWrap);
}

void PermissionDiffBox::setDiff(const QString &diff)
{
    setPlainText(diff);
    m_kinds = classify(diff);
    colourLines();
}

QList<PermissionDiffBox::LineKind> PermissionDiffBox::classify(const QString &diff)
{
    QList<LineKind> kinds;
    bool inHeader = true;
    for (const QStringView line : QStringView(diff).split(u'\n')) {
        if (line.startsWith("Index: "_L1)) {
            inHeader = true;
        } else if (line.startsWith("@@"_L1)) {
            inHeader = false;
            kinds.append(LineKind::Hunk);
            continue;
        }
        if (inHeader)
            kinds.append(LineKind::Header);
        else if (line.startsWith(u'+'))
            kinds.append(LineKind::Added);
        else if (line.startsWith(u'-'))
            kinds.append(LineKind::Removed);
        else
            kinds.append(LineKind::Context);
    }
    return kinds;
}

QColor PermissionDiffBox::background(LineKind kind) const
{
    const QColor base = palette().color(QPalette::Base);
    switch (kind) {
    case LineKind::Added:
        return tinted(base, QColor(0, 170, 0), TintStrength);
    case LineKind::Removed:
        return tinted(base, QColor(220, 0, 0), TintStrength);
    case LineKind::Hunk:
        return tinted(base, palette().color(QPalette::Highlight), HunkTintStrength);
    case LineKind::Context:
    case LineKind::Header:
        break;
    }
    return {};
}

void PermissionDiffBox::changeEvent(QEvent *event)
{
    QPlainTextEdit::changeEvent(event);
    if (event->type() == QEvent::PaletteChange)
        colourLines();
}

void PermissionDiffBox::colourLines()
{
    QList<QTextEdit::ExtraSelection> selections;
    QTextBlock block = document()->firstBlock();
    for (qsizetype i = 0; i < m_kinds.size() && block.isValid(); ++i, block = block.next()) {
        QTextEdit::ExtraSelection selection;
        selection.cursor = QTextCursor(block);
        if (m_kinds.at(i) == LineKind::Header) {
            selection.cursor.movePosition(QTextCursor::EndOfBlock, QTextCursor::KeepAnchor);
            selection.format.setFontWeight(QFont::Bold);
        } else if (const QColor colour = background(m_kinds.at(i)); colour.isValid()) {
            selection.format.setBackground(colour);
            selection.format.setProperty(QTextFormat::FullWidthSelection, true);
        } else {
            continue;
        }
        selections.append(selection);
    }
    setExtraSelections(selections);
}

} // namespace qcode
