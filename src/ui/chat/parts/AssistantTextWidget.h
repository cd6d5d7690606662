#pragma once

#include <memory>

#include "ui/chat/ChatContext.h"
#include "ui/chat/PartWidget.h"

namespace qcode {

class CodeHighlighter;
class MarkdownView;

// The assistant's words: Markdown with highlighted code blocks, each with a
// Copy link, selectable. Streamed deltas are appended to the view, which
// renders only the block still being written; a later state of the part
// that merely extends the text shown is appended the same way.
class AssistantTextWidget : public PartWidget
{
    Q_OBJECT

public:
    explicit AssistantTextWidget(const ChatContext &context, QWidget *parent = nullptr);
    ~AssistantTextWidget() override;

    void setPart(const Part &part, const Message &message) override;
    void appendDelta(const Part &part, const Message &message, const QString &field, const QString &delta) override;
    QString markdown() const override { return m_text; }

    MarkdownView *view() const { return m_view; }

private:
    void showText(const QString &text);

    // Shared with the rest of the chat; held here so it outlives the view.
    std::shared_ptr<CodeHighlighter> m_highlighter;
    MarkdownView *m_view = nullptr;
    QString m_text;
};

} // namespace qcode
