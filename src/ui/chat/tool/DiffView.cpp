#include "DiffView.h"

#include <QEvent>
#include <QPushButton>
#include <QScrollBar>
#include <QStyle>
#include <QTextBlock>
#include <QToolButton>

#include "DiffGutter.h"
#include "DiffSidePane.h"
#include "OutputView.h"
#include "ToolCardLogging.h"
#include "ToolColors.h"
#include "ToolFonts.h"
#include "ToolInput.h"

using namespace Qt::StringLiterals;

namespace qcode {

namespace {

// Formats from the palette of the moment, rebuilt for every chunk (a
// handful of small objects) so a theme change needs only a re-render.
struct DiffFormats {
    QTextBlockFormat context, added, removed, header, hunk, filler;
    QTextCharFormat plain, addedMark, removedMark, path, addedCount, removedCount, muted, note;

    explicit DiffFormats(const QPalette &palette)
    {
        added.setBackground(ToolColors::addedBackground(palette));
        removed.setBackground(ToolColors::removedBackground(palette));
        header.setBackground(ToolColors::headerBackground(palette));
        hunk.setBackground(ToolColors::fillerBackground(palette));
        filler.setBackground(ToolColors::fillerBackground(palette));
        addedMark.setBackground(ToolColors::addedEmphasis(palette));
        removedMark.setBackground(ToolColors::removedEmphasis(palette));
        path.setFontWeight(QFont::Bold);
        addedCount.setForeground(ToolColors::addedText(palette));
        removedCount.setForeground(ToolColors::error(palette));
        muted.setForeground(ToolColors::muted(palette));
        note = muted;
        note.setFontItalic(true);
    }
};

void startBlock(QTextCursor &cursor, bool first, const QTextBlockFormat &format)
{
    if (first)
        cursor.setBlockFormat(format);
    else
        cursor.insertBlock(format, QTextCharFormat());
}

void appendChanged(QTextCursor &cursor, QChar prefix, const DiffLine &line, const QTextCharFormat &mark)
{
    if (line.changedStart < 0 || line.changedLength <= 0) {
        cursor.insertText(prefix + line.text, QTextCharFormat());
        return;
    }
    cursor.insertText(prefix + line.text.left(line.changedStart), QTextCharFormat());
    cursor.insertText(line.text.mid(line.changedStart, line.changedLength), mark);
    cursor.insertText(line.text.mid(line.changedStart + line.changedLength), QTextCharFormat());
}

// A hunk without numbers (a proposed edit, not yet placed in its file)
// reads as "somewhere here", with its context line if it has one.
QString hunkLabel(const QString &header)
{
    if (!header.startsWith("@@ @@"_L1))
        return header;
    const QString context = header.mid(5).trimmed();
    return context.isEmpty() ? u"\u22ef"_s : QString(u"\u22ef "_s + context);
}

} // namespace

DiffView::DiffView(QWidget *parent)
    : QPlainTextEdit(parent)
    , m_gutter(new DiffGutter(this, DiffGutter::Columns::Both))
{
    setReadOnly(true);
    setUndoRedoEnabled(false);
    setLineWrapMode(QPlainTextEdit::NoWrap);
    setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::TextSelectableByKeyboard);
    setFont(ToolFonts::fixed());
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
    m_renderTimer.setSingleShot(true);
    m_renderTimer.setInterval(0);
    connect(&m_renderTimer, &QTimer::timeout, this, &DiffView::renderChunk);
    m_showAll = new QPushButton(viewport());
    m_showAll->setObjectName(u"diffShowAll"_s);
    m_showAll->hide();
    ToolFonts::keepInterfaceFont(m_showAll);
    connect(m_showAll, &QPushButton::clicked, this, &DiffView::showWholeDiff);
    m_splitToggle = new QToolButton(this);
    m_splitToggle->setObjectName(u"diffSplitToggle"_s);
    m_splitToggle->setCheckable(true);
    m_splitToggle->setCursor(Qt::ArrowCursor);
    ToolFonts::keepInterfaceFont(m_splitToggle);
    connect(m_splitToggle, &QToolButton::toggled, this, &DiffView::setSplitView);
    // A horizontal scroll bar takes a row's height: ask for it.
    connect(horizontalScrollBar(), &QScrollBar::rangeChanged, this, &DiffView::updateGeometry);
    retranslateUi();
}

void DiffView::retranslateUi()
{
    m_showAll->setText(tr("Show the whole diff"));
    m_splitToggle->setText(tr("Side by side"));
    m_splitToggle->setToolTip(tr("Show the old and the new text side by side"));
    // The summary of a held-back diff is words too; a shown diff is not.
    if (m_summary)
        showSummary();
    else
        layoutPanes();
}

DiffView::~DiffView() = default;

void DiffView::setUnifiedDiff(const QString &diff)
{
    if (diff.size() == m_diff.size() && diff == m_diff)
        return;
    m_diff = diff;
    if (diff.count(u'\n') > HugeLines || diff.size() > HugeCharacters) {
        qCInfo(lcToolCard) << "holding back a diff of" << diff.size() << "characters behind its summary";
        m_parsed = DiffParser::summarize(diff);
        showSummary();
        return;
    }
    m_parsed = DiffParser::parse(diff);
    startRender();
}

void DiffView::showWholeDiff()
{
    if (!m_summary)
        return;
    m_parsed = DiffParser::parse(m_diff);
    startRender();
}

void DiffView::setSplitView(bool split)
{
    if (split == m_split)
        return;
    m_split = split;
    m_splitToggle->setChecked(split);
    m_gutter->setColumns(split ? DiffGutter::Columns::Old : DiffGutter::Columns::Both);
    if (split)
        ensureNewSide()->show();
    else if (m_newSide)
        m_newSide->hide();
    setVerticalScrollBarPolicy(split ? Qt::ScrollBarAlwaysOff : Qt::ScrollBarAsNeeded);
    setHorizontalScrollBarPolicy(split ? Qt::ScrollBarAlwaysOff : Qt::ScrollBarAsNeeded);
    layoutPanes();
    if (!m_summary && !m_diff.isEmpty())
        startRender();
}

void DiffView::setProjectDirectory(const QString &directory)
{
    m_projectDirectory = directory;
}

QString DiffView::summaryText() const
{
    const int files = std::max(1, int(m_parsed.files.size()));
    return tr("+%1 \u2212%2 in %n file(s)", nullptr, files).arg(m_parsed.additions).arg(m_parsed.deletions);
}

QPlainTextEdit *DiffView::newSideView() const
{
    return m_split ? m_newSide : nullptr;
}

DiffSidePane *DiffView::ensureNewSide()
{
    if (m_newSide)
        return m_newSide;
    m_newSide = new DiffSidePane(this);
    m_newSide->setFont(font());
    m_splitToggle->raise();
    connect(m_newSide->horizontalScrollBar(), &QScrollBar::rangeChanged, this, &DiffView::updateGeometry);
    // One scroll position for both sides: their rows line up.
    connect(m_newSide->verticalScrollBar(), &QScrollBar::valueChanged, verticalScrollBar(), &QScrollBar::setValue);
    connect(verticalScrollBar(), &QScrollBar::valueChanged, m_newSide->verticalScrollBar(), &QScrollBar::setValue);
    connect(m_newSide->horizontalScrollBar(), &QScrollBar::valueChanged, horizontalScrollBar(), &QScrollBar::setValue);
    connect(horizontalScrollBar(), &QScrollBar::valueChanged, m_newSide->horizontalScrollBar(), &QScrollBar::setValue);
    return m_newSide;
}

int DiffView::rowCount() const
{
    return int(m_split ? m_rows.size() : m_parsed.lines.size());
}

void DiffView::clearPanes()
{
    m_renderTimer.stop();
    clear();
    m_gutter->clear();
    if (m_newSide) {
        m_newSide->clear();
        m_newSide->gutter()->clear();
    }
}

void DiffView::showSummary()
{
    clearPanes();
    m_summary = true;
    const DiffFormats formats(palette());
    QTextCursor cursor(document());
    cursor.insertText(summaryText(), formats.path);
    cursor.insertBlock();
    cursor.insertText(tr("This diff has %n line(s); it is not shown until you ask for it.", nullptr,
                         int(m_diff.count(u'\n'))),
                      formats.muted);
    m_showAll->show();
    m_splitToggle->hide();
    layoutPanes();
    updateGeometry();
}

void DiffView::startRender()
{
    clearPanes();
    m_summary = false;
    m_showAll->hide();
    m_rendered = 0;
    m_rows = m_split ? DiffParser::splitRows(m_parsed.lines) : QList<DiffSplitRow>();
    m_splitToggle->show();
    updateGeometry();
    renderChunk();
}

void DiffView::renderChunk()
{
    const DiffFormats formats(palette());
    const int end = std::min(rowCount(), m_rendered + RowsPerChunk);
    QTextCursor oldCursor(document());
    oldCursor.movePosition(QTextCursor::End);
    oldCursor.beginEditBlock();
    QTextCursor newCursor;
    if (m_split) {
        newCursor = QTextCursor(m_newSide->document());
        newCursor.movePosition(QTextCursor::End);
        newCursor.beginEditBlock();
    }

    const auto appendLine = [&](QTextCursor &cursor, DiffGutter *gutter, int index, bool first) {
        if (index < 0) {
            startBlock(cursor, first, formats.filler);
            gutter->append(0, 0);
            return;
        }
        const DiffLine &line = m_parsed.lines.at(index);
        gutter->append(line.oldNumber, line.newNumber);
        switch (line.kind) {
        case DiffLine::Kind::FileHeader: {
            startBlock(cursor, first, formats.header);
            const DiffFileSummary summary = m_parsed.files.value(line.file);
            cursor.insertText(ToolInput::displayPath(line.text, m_projectDirectory), formats.path);
            cursor.insertText(u"  "_s, QTextCharFormat());
            cursor.insertText(u"+%1"_s.arg(summary.additions), formats.addedCount);
            cursor.insertText(u" "_s, QTextCharFormat());
            cursor.insertText(u"\u2212%1"_s.arg(summary.deletions), formats.removedCount);
            break;
        }
        case DiffLine::Kind::HunkHeader:
            startBlock(cursor, first, formats.hunk);
            cursor.insertText(hunkLabel(line.text), formats.muted);
            break;
        case DiffLine::Kind::Note:
            startBlock(cursor, first, formats.context);
            cursor.insertText(line.text, formats.note);
            break;
        case DiffLine::Kind::Context:
            startBlock(cursor, first, formats.context);
            cursor.insertText(u' ' + line.text, QTextCharFormat());
            break;
        case DiffLine::Kind::Added:
            startBlock(cursor, first, formats.added);
            appendChanged(cursor, u'+', line, formats.addedMark);
            break;
        case DiffLine::Kind::Removed:
            startBlock(cursor, first, formats.removed);
            appendChanged(cursor, u'-', line, formats.removedMark);
            break;
        }
    };

    for (int row = m_rendered; row < end; ++row) {
        const bool first = row == 0;
        if (m_split) {
            appendLine(oldCursor, m_gutter, m_rows.at(row).left, first);
            appendLine(newCursor, m_newSide->gutter(), m_rows.at(row).right, first);
        } else {
            appendLine(oldCursor, m_gutter, row, first);
        }
    }
    oldCursor.endEditBlock();
    if (m_split)
        newCursor.endEditBlock();
    m_rendered = end;
    layoutPanes();
    if (m_rendered < rowCount()) {
        m_renderTimer.start();
        return;
    }
    Q_EMIT renderingFinished();
}

void DiffView::layoutPanes()
{
    const QRect area = contentsRect();
    const int half = area.width() / 2;
    const QMargins margins(m_gutter->preferredWidth(), 0, m_split && m_newSide ? area.width() - half : 0, 0);
    // The viewport's resizes come back through resizeEvent(): margins are
    // set only when they change, so that never loops.
    if (margins != viewportMargins())
        setViewportMargins(margins);
    if (m_split && m_newSide) {
        m_newSide->setGeometry(area.left() + half, area.top(), area.width() - half, area.height());
        m_newSide->reserveGutter();
    }
    const int line = fontMetrics().lineSpacing();
    m_showAll->move(int(document()->documentMargin()) + 2, 2 * line + int(document()->documentMargin()) + 6);
    m_showAll->resize(m_showAll->sizeHint());
    m_splitToggle->adjustSize();
    // Clear of a vertical scroll bar, whether or not one shows.
    const int scrollBar = style()->pixelMetric(QStyle::PM_ScrollBarExtent, nullptr, this);
    m_splitToggle->move(area.right() - scrollBar - m_splitToggle->width() - 2, area.top() + 2);
}

QSize DiffView::sizeHint() const
{
    const int rows = m_summary ? 2 : std::min(rowCount(), MaxVisibleRows);
    int height = OutputView::heightForLines(this, std::max(rows, 1));
    if (m_summary)
        height += m_showAll->sizeHint().height() + 10;
    const QScrollBar *across = m_split && m_newSide ? m_newSide->horizontalScrollBar() : horizontalScrollBar();
    if (!m_summary && across->maximum() > 0)
        height += style()->pixelMetric(QStyle::PM_ScrollBarExtent, nullptr, this);
    return {QPlainTextEdit::sizeHint().width(), height};
}

QSize DiffView::minimumSizeHint() const
{
    return {QPlainTextEdit::minimumSizeHint().width(), sizeHint().height()};
}

void DiffView::resizeEvent(QResizeEvent *event)
{
    QPlainTextEdit::resizeEvent(event);
    layoutPanes();
}

void DiffView::changeEvent(QEvent *event)
{
    QPlainTextEdit::changeEvent(event);
    if (event->type() == QEvent::PaletteChange || event->type() == QEvent::FontChange) {
        if (m_newSide)
            m_newSide->setFont(font());
        if (m_summary)
            showSummary();
        else if (!m_diff.isEmpty())
            startRender();
    } else if (event->type() == QEvent::LanguageChange) {
        retranslateUi();
    }
}

} // namespace qcode
