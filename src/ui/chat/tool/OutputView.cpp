#include "OutputView.h"

#include <QClipboard>
#include <QEvent>
#include <QFontMetricsF>
#include <QGuiApplication>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScrollBar>
#include <QStyle>
#include <QTextBlock>
#include <QToolButton>
#include <QVBoxLayout>

#include <cmath>

#include "OutputText.h"
#include "ToolColors.h"
#include "ToolFonts.h"
#include "ui/highlight/CodeBlockHighlighter.h"
#include "ui/highlight/CodeHighlighter.h"

using namespace Qt::StringLiterals;

namespace qcode {

namespace {

QStringView withoutFinalBreak(QStringView text)
{
    return text.endsWith(u'\n') ? text.chopped(1) : text;
}

// Where the last `lines` lines of `text` start.
qsizetype tailStart(QStringView text, int lines)
{
    qsizetype at = text.size();
    for (int i = 0; i < lines; ++i) {
        at = text.lastIndexOf(u'\n', at - 1);
        if (at < 0)
            return 0;
    }
    return at + 1;
}

// Where the first `lines` lines of `text` end.
qsizetype headEnd(QStringView text, int lines)
{
    qsizetype at = -1;
    for (int i = 0; i < lines; ++i) {
        at = text.indexOf(u'\n', at + 1);
        if (at < 0)
            return text.size();
    }
    return at;
}

} // namespace

OutputView::OutputView(QWidget *parent)
    : QWidget(parent)
    , m_layout(new QVBoxLayout(this))
    , m_omitted(new QLabel(this))
    , m_view(new OutputText(this))
    , m_more(new QPushButton(this))
    , m_copy(new QToolButton(m_view))
{
    m_layout->setContentsMargins(0, 0, 0, 0);
    m_layout->setSpacing(2);
    m_omitted->setObjectName(u"outputOmitted"_s);
    m_omitted->hide();
    m_view->setObjectName(u"outputText"_s);
    m_view->setReadOnly(true);
    m_view->setUndoRedoEnabled(false);
    m_view->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_view->setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::TextSelectableByKeyboard);
    m_view->setFont(ToolFonts::fixed());
    m_view->setFrameShape(QFrame::NoFrame);
    m_view->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_view->viewport()->installEventFilter(this);
    m_more->setObjectName(u"toolMoreLines"_s);
    m_more->setFlat(true);
    m_more->hide();
    m_copy->setObjectName(u"outputCopy"_s);
    m_copy->setCursor(Qt::ArrowCursor);
    ToolFonts::keepInterfaceFont(m_copy);

    m_layout->addWidget(m_omitted);
    m_layout->addWidget(m_view);
    m_layout->addWidget(m_more, 0, Qt::AlignLeft);

    connect(m_more, &QPushButton::clicked, this, [this] { setExpanded(!m_expanded); });
    connect(m_copy, &QToolButton::clicked, this, [this] { QGuiApplication::clipboard()->setText(m_text); });
    connect(m_view->horizontalScrollBar(), &QScrollBar::rangeChanged, this, &OutputView::updateHeight);
    connect(m_view->verticalScrollBar(), &QScrollBar::rangeChanged, this, &OutputView::keepEndInView);
    connect(m_view->verticalScrollBar(), &QScrollBar::valueChanged, this, [this](int value) {
        if (m_expanded)
            m_following = value == m_view->verticalScrollBar()->maximum();
    });
    retranslateUi();
}

QPlainTextEdit *OutputView::textView() const
{
    return m_view;
}

void OutputView::setFirstLineNumber(int first)
{
    m_view->setFirstLineNumber(first);
}

void OutputView::setLanguage(CodeHighlighter *highlighter, const QString &fileName)
{
    const bool known = highlighter && !fileName.isEmpty() && highlighter->knowsLanguage(fileName);
    if (!known) {
        delete std::exchange(m_blockHighlighter, nullptr);
        m_highlighter = nullptr;
        m_language.clear();
        return;
    }
    if (m_blockHighlighter && highlighter == m_highlighter && fileName == m_language)
        return;
    delete m_blockHighlighter;
    m_highlighter = highlighter;
    m_language = fileName;
    m_highlighter->setDark(ToolColors::isDark(palette()));
    m_blockHighlighter = new CodeBlockHighlighter(m_highlighter, m_language, m_view->document());
}

void OutputView::retranslateUi()
{
    m_copy->setText(tr("Copy"));
    m_copy->setToolTip(tr("Copy the whole output"));
    refresh(); // the counts of lines left out
}

void OutputView::changeEvent(QEvent *event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::LanguageChange) {
        retranslateUi();
    } else if (event->type() == QEvent::PaletteChange && m_blockHighlighter) {
        // The chat shares one highlighter; the palette of the moment picks its colours.
        m_highlighter->setDark(ToolColors::isDark(palette()));
        m_blockHighlighter->rehighlight();
    }
}

void OutputView::setEnd(End end)
{
    if (end == m_end)
        return;
    m_end = end;
    // The note on left-out lines sits where they were left out.
    // The note on left-out lines, and the button that shows more, sit where
    // the lines were left out: above a command's output (its earlier lines).
    m_layout->removeWidget(m_omitted);
    m_layout->removeWidget(m_more);
    if (end == End::Tail) {
        m_layout->insertWidget(0, m_omitted);
        m_layout->insertWidget(1, m_more, 0, Qt::AlignLeft);
    } else {
        m_layout->insertWidget(1, m_omitted);
        m_layout->addWidget(m_more, 0, Qt::AlignLeft);
    }
    const QString text = m_text;
    m_text.clear();
    m_shownLength = 0;
    setText(text);
}

void OutputView::setText(const QString &text)
{
    if (text.size() == m_text.size() && text == m_text)
        return;
    const QStringView next = withoutFinalBreak(text);
    const QStringView shown = QStringView(m_text).left(m_shownLength);
    const bool extends = m_end == End::Tail && m_shownLength > 0 && next.startsWith(shown);
    const QStringView added = next.mid(m_shownLength);
    m_text = text;
    if (extends && added.count(u'\n') < MaxKeptLines)
        append(added);
    else
        reset(next);
    m_shownLength = next.size();
    refresh();
}

void OutputView::reset(QStringView text)
{
    m_lineBreaks = text.count(u'\n');
    m_view->setMaximumBlockCount(m_end == End::Tail ? MaxKeptLines : 0);
    if (m_end == End::Tail)
        m_view->setPlainText(text.mid(tailStart(text, MaxKeptLines)).toString());
    else
        m_view->setPlainText(text.left(headEnd(text, MaxKeptLines)).toString());
}

void OutputView::append(QStringView added)
{
    if (added.isEmpty())
        return;
    m_lineBreaks += added.count(u'\n');
    QTextCursor cursor(m_view->document());
    cursor.movePosition(QTextCursor::End);
    // The document drops its first blocks past its maximum block count.
    cursor.insertText(added.toString());
}

int OutputView::totalLines() const
{
    return m_shownLength > 0 ? int(m_lineBreaks + 1) : 0;
}

int OutputView::shownLines() const
{
    return m_shownLength > 0 ? m_view->document()->blockCount() : 0;
}

void OutputView::setExpanded(bool expanded)
{
    if (expanded == m_expanded)
        return;
    m_expanded = expanded;
    m_following = true;
    refresh();
}

void OutputView::refresh()
{
    const int shown = shownLines();
    const int omitted = omittedLines();
    m_omitted->setVisible(omitted > 0);
    if (omitted > 0)
        m_omitted->setText(m_end == End::Tail ? tr("\u2026 %n earlier line(s) not shown", nullptr, omitted)
                                              : tr("\u2026 %n more line(s) not shown", nullptr, omitted));
    QPalette muted = m_omitted->palette();
    muted.setColor(QPalette::WindowText, ToolColors::muted(palette()));
    m_omitted->setPalette(muted);

    const int hidden = shown - PreviewLines;
    m_more->setVisible(hidden > 0);
    if (hidden > 0)
        m_more->setText(m_expanded                ? tr("Show less")
                        : m_end == End::Tail      ? tr("+%n earlier line(s)", nullptr, hidden)
                                                  : tr("+%n line(s)", nullptr, hidden));
    m_view->setVerticalScrollBarPolicy(m_expanded ? Qt::ScrollBarAsNeeded : Qt::ScrollBarAlwaysOff);
    m_copy->setVisible(m_shownLength > 0);
    m_view->setVisible(m_shownLength > 0);
    updateHeight();
    keepEndInView();
}

int OutputView::heightForLines(const QPlainTextEdit *view, int lines)
{
    // What QPlainTextEdit needs to show `lines` whole lines without
    // scrolling: its line heights are fractional, and its viewport keeps
    // the document margin and a pixel to spare.
    const QFontMetricsF metrics(view->font());
    const qreal line = std::max(metrics.height(), metrics.lineSpacing());
    return int(std::ceil(lines * line + 2 * view->document()->documentMargin())) + 2 * view->frameWidth() + 2;
}

void OutputView::updateHeight()
{
    const int rows = std::clamp(shownLines(), 1, m_expanded ? MaxVisibleLines : PreviewLines);
    int height = heightForLines(m_view, rows);
    if (m_view->horizontalScrollBar()->maximum() > 0)
        height += m_view->style()->pixelMetric(QStyle::PM_ScrollBarExtent, nullptr, m_view);
    if (m_view->height() != height)
        m_view->setFixedHeight(height);
}

void OutputView::keepEndInView()
{
    // A command's newest lines stay in view unless the person scrolled up.
    QScrollBar *bar = m_view->verticalScrollBar();
    if (m_end == End::Head && !m_expanded)
        bar->setValue(0);
    else if (m_end == End::Tail && (!m_expanded || m_following))
        bar->setValue(bar->maximum());
}

bool OutputView::eventFilter(QObject *watched, QEvent *event)
{
    // The copy button floats at the text's top right corner.
    if (watched == m_view->viewport() && event->type() == QEvent::Resize) {
        const QRect area = m_view->viewport()->geometry();
        m_copy->adjustSize();
        m_copy->move(area.right() - m_copy->width() - 2, area.top() + 2);
    }
    // Collapsed, the preview does not scroll: the wheel scrolls the chat.
    if (watched == m_view->viewport() && event->type() == QEvent::Wheel && !m_expanded) {
        event->ignore();
        return true;
    }
    return QWidget::eventFilter(watched, event);
}

} // namespace qcode
