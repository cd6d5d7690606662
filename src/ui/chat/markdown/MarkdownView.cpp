#include "MarkdownView.h"

#include <QAbstractTextDocumentLayout>
#include <QClipboard>
#include <QDesktopServices>
#include <QEvent>
#include <QGuiApplication>
#include <QScrollBar>
#include <QWheelEvent>
#include <QtMath>

#include "MarkdownLogging.h"
#include "ui/chat/ChatColors.h"
#include "ui/highlight/CodeBlockHighlighter.h"
#include "ui/highlight/CodeHighlighter.h"

using namespace Qt::StringLiterals;

namespace qcode {
namespace {

// An open block up to this size is rendered again on every delta; a larger
// one (a huge paragraph or table) at most once per interval, so a stream of
// small deltas into it stays linear.
constexpr qsizetype ImmediateRenderLimit = 16 * 1024;
constexpr int LargeBlockRenderIntervalMs = 100;

bool opensInBrowser(const QUrl &url)
{
    const QString scheme = url.scheme().toLower();
    return scheme == u"http"_s || scheme == u"https"_s || scheme == u"mailto"_s;
}

} // namespace

MarkdownView::MarkdownView(CodeHighlighter *highlighter, QWidget *parent)
    : QTextBrowser(parent), m_highlighter(highlighter), m_renderer(document())
{
    setOpenLinks(false);
    setOpenExternalLinks(false);
    setTextInteractionFlags(Qt::TextBrowserInteraction | Qt::TextSelectableByKeyboard);
    setFrameShape(QFrame::NoFrame);
    setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    // Only a code line wider than the chat overflows; the text wraps.
    setHorizontalScrollBarPolicy(Qt::ScrollBarAsNeeded);
    setLineWrapMode(QTextEdit::WidgetWidth);
    setWordWrapMode(QTextOption::WrapAtWordBoundaryOrAnywhere);
    setUndoRedoEnabled(false);
    viewport()->setAutoFillBackground(false);
    document()->setDocumentMargin(2);
    QSizePolicy policy(QSizePolicy::Expanding, QSizePolicy::Preferred);
    policy.setHeightForWidth(true);
    setSizePolicy(policy);

    if (m_highlighter)
        m_blockHighlighter = new CodeBlockHighlighter(m_highlighter, document());
    m_renderTimer.setSingleShot(true);
    m_renderTimer.setInterval(LargeBlockRenderIntervalMs);
    connect(&m_renderTimer, &QTimer::timeout, this, &MarkdownView::renderPending);
    connect(this, &QTextBrowser::anchorClicked, this, &MarkdownView::activateLink);
    connect(document()->documentLayout(), &QAbstractTextDocumentLayout::documentSizeChanged, this,
            [this] { contentHeightMayHaveChanged(); });
    applyPalette();
}

MarkdownView::~MarkdownView() = default;

void MarkdownView::setMarkdown(const QString &text)
{
    const QString source = text; // `text` may be m_source itself
    m_renderTimer.stop();
    m_source = source;
    m_blocks.clear();
    m_renderer.clear();
    m_pendingClosed = m_blocks.append(source);
    renderPending();
}

void MarkdownView::appendMarkdown(const QString &delta)
{
    if (delta.isEmpty())
        return;
    m_source += delta;
    m_pendingClosed += m_blocks.append(delta);
    if (m_blocks.openBlockSize() > ImmediateRenderLimit) {
        if (!m_renderTimer.isActive())
            m_renderTimer.start();
        return;
    }
    renderPending();
}

void MarkdownView::showMarkdown(const QString &text)
{
    if (text.startsWith(m_source))
        appendMarkdown(text.mid(m_source.size()));
    else
        setMarkdown(text);
}

void MarkdownView::renderPending()
{
    m_renderTimer.stop();
    m_renderer.update(std::exchange(m_pendingClosed, QStringList()), m_blocks.openBlock());
    contentHeightMayHaveChanged();
}

bool MarkdownView::hasHeightForWidth() const
{
    return true;
}

int MarkdownView::heightForWidth(int width) const
{
    const QMargins frame = contentsMargins() + viewportMargins();
    const int textWidth = qMax(1, width - frame.left() - frame.right());
    return documentHeightAt(textWidth) + frame.top() + frame.bottom() + overflowBarHeight(textWidth);
}

// Room for the sideways scroll bar under a code line wider than the view.
int MarkdownView::overflowBarHeight(int textWidth) const
{
    const bool overflows = qFuzzyCompare(document()->textWidth(), qreal(textWidth))
                               ? document()->size().width() > textWidth + 1
                               : m_measuredOverflow;
    return overflows ? horizontalScrollBar()->sizeHint().height() : 0;
}

QSize MarkdownView::sizeHint() const
{
    // Once laid out, the width it has is the one it prefers: a layout asks
    // heightForWidth() at the hint's width, and any other width would lay
    // out a copy of the whole document on every streamed frame.
    const int preferredWidth = width() > 1 ? width() : QTextBrowser::sizeHint().width();
    return {preferredWidth, heightForWidth(preferredWidth)};
}

QSize MarkdownView::minimumSizeHint() const
{
    // Narrow enough never to widen the chat; the height comes from heightForWidth().
    const QMargins frame = contentsMargins() + viewportMargins();
    return {fontMetrics().averageCharWidth() * 8, fontMetrics().lineSpacing() + frame.top() + frame.bottom()};
}

int MarkdownView::documentHeightAt(int textWidth) const
{
    QTextDocument *doc = document();
    if (qFuzzyCompare(doc->textWidth(), qreal(textWidth)))
        return qCeil(doc->size().height());
    if (m_measuredWidth == textWidth)
        return m_measuredHeight;
    // Laid out on a copy: changing the shown document's width, even for a
    // moment, leaves QTextEdit's scroll range at the other width's height.
    // A layout asks for a few widths while it settles; the last answer is kept.
    const std::unique_ptr<QTextDocument> copy(doc->clone());
    copy->setTextWidth(textWidth);
    m_measuredWidth = textWidth;
    m_measuredHeight = qCeil(copy->size().height());
    m_measuredOverflow = copy->size().width() > textWidth + 1;
    return m_measuredHeight;
}

void MarkdownView::contentHeightMayHaveChanged()
{
    m_measuredWidth = -1;
    const QMargins frame = contentsMargins() + viewportMargins();
    if (!qFuzzyCompare(document()->textWidth(), qreal(width() - frame.left() - frame.right()))) {
        // Not laid out at this width (yet): measuring here would lay the whole
        // document out twice per delta. The layout asks heightForWidth() itself.
        updateGeometry();
        return;
    }
    const int height = qCeil(document()->size().height()) + frame.top() + frame.bottom()
                       + overflowBarHeight(width() - frame.left() - frame.right());
    if (height != m_reportedHeight) {
        m_reportedHeight = height;
        updateGeometry();
    }
}

void MarkdownView::activateLink(const QUrl &url)
{
    if (const std::optional<int> index = CodeBlockFormats::copyIndex(url)) {
        if (const std::optional<QString> code = m_renderer.code(*index)) {
            QGuiApplication::clipboard()->setText(*code);
            Q_EMIT codeCopied(*code);
        }
        return;
    }
    if (opensInBrowser(url)) {
        QDesktopServices::openUrl(url);
        return;
    }
    // file:, relative paths and custom schemes could run or reveal things on this machine.
    qCInfo(lcMarkdown) << "Not opening a link with the scheme" << url.scheme();
}

void MarkdownView::applyPalette()
{
    if (m_highlighter)
        m_highlighter->setDark(ChatColors::isDark(palette()));
    m_renderer.setFormats(CodeBlockFormats::forPalette(palette()));
}

void MarkdownView::changeEvent(QEvent *event)
{
    QTextBrowser::changeEvent(event);
    if (event->type() == QEvent::PaletteChange) {
        applyPalette();
        if (!m_source.isEmpty())
            setMarkdown(m_source);
    } else if (event->type() == QEvent::LanguageChange && m_renderer.hasOwnWords()) {
        setMarkdown(m_source);
    }
}

void MarkdownView::wheelEvent(QWheelEvent *event)
{
    // Up and down scroll the chat around the view; only a sideways wheel
    // (or Shift) scrolls a wide code line here.
    const bool sideways = event->angleDelta().x() != 0 || event->modifiers().testFlag(Qt::ShiftModifier);
    if (sideways && horizontalScrollBar()->maximum() > 0) {
        QTextBrowser::wheelEvent(event);
        return;
    }
    event->ignore();
}

QVariant MarkdownView::loadResource(int type, const QUrl &name)
{
    // Images in an answer would be read from this machine's disk; none are loaded.
    qCDebug(lcMarkdown) << "Not loading resource" << type << name.scheme();
    return {};
}

} // namespace qcode
