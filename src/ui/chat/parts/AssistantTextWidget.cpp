#include "AssistantTextWidget.h"

#include <QVBoxLayout>

#include <algorithm>

#include "ui/chat/markdown/MarkdownView.h"
#include "ui/highlight/CodeHighlighter.h"

using namespace Qt::StringLiterals;

namespace qcode {
namespace {

bool isWhitespace(QStringView text)
{
    return std::all_of(text.begin(), text.end(), [](QChar c) { return c.isSpace(); });
}

} // namespace

AssistantTextWidget::AssistantTextWidget(const ChatContext &context, QWidget *parent)
    : PartWidget(parent), m_highlighter(context.highlighter)
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    m_view = new MarkdownView(m_highlighter.get(), this);
    m_view->setObjectName(u"assistantText"_s);
    m_view->setContextMenuPolicy(Qt::NoContextMenu); // the message's own menu has Copy
    layout->addWidget(m_view);
}

AssistantTextWidget::~AssistantTextWidget()
{
    delete m_view; // before m_highlighter lets go of the highlighter it colours with
}

void AssistantTextWidget::setPart(const Part &part, const Message &)
{
    const TextPart *text = part.as<TextPart>();
    showText(text ? text->text : QString());
}

void AssistantTextWidget::appendDelta(const Part &part, const Message &message, const QString &field,
                                      const QString &delta)
{
    const TextPart *text = part.as<TextPart>();
    const bool extendsShown = text && m_view->markdown().size() == m_text.size()
                              && text->text.size() == m_text.size() + delta.size() && text->text.endsWith(delta);
    if (field != u"text"_s || !extendsShown) {
        setPart(part, message);
        return;
    }
    m_text = text->text;
    m_view->appendMarkdown(delta);
}

void AssistantTextWidget::showText(const QString &text)
{
    const QString shown = m_view->markdown();
    m_text = text;
    // The finished part is the streamed text trimmed: what is shown already looks the same.
    if (shown.startsWith(text) && isWhitespace(QStringView(shown).mid(text.size())))
        return;
    m_view->showMarkdown(text);
}

} // namespace qcode
