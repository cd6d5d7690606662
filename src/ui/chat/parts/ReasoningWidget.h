#pragma once

#include <memory>

#include "ui/chat/ChatContext.h"
#include "ui/chat/PartWidget.h"

class QToolButton;

namespace qcode {

class CodeHighlighter;
class MarkdownView;

// The model's reasoning: collapsed to one line — "Thinking…" while it
// streams, "Thought for 4.2 s" after — and shown in full, as muted
// Markdown, on request. While collapsed nothing is rendered; once open,
// streamed text renders only its last block.
class ReasoningWidget : public PartWidget
{
    Q_OBJECT

public:
    explicit ReasoningWidget(const ChatContext &context, QWidget *parent = nullptr);
    ~ReasoningWidget() override;

    void setPart(const Part &part, const Message &message) override;
    void appendDelta(const Part &part, const Message &message, const QString &field, const QString &delta) override;
    QString markdown() const override;

    bool isExpanded() const;
    void setExpanded(bool expanded);
    QString headerText() const;
    MarkdownView *body() const { return m_body; }

protected:
    void changeEvent(QEvent *event) override;

private:
    void retranslateUi();
    void renderHeader();
    void renderBody();
    void applyColours();

    QString m_text;
    qint64 m_start = 0;
    std::optional<qint64> m_end;
    std::shared_ptr<CodeHighlighter> m_highlighter; // outlives m_body
    QToolButton *m_header = nullptr;
    MarkdownView *m_body = nullptr;
};

} // namespace qcode
