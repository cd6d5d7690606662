#pragma once

#include "ui/chat/ChatContext.h"
#include "ui/chat/PartWidget.h"

namespace qcode {

class ToolCard;

// A tool call in the conversation: a ToolCard, kept for the part's whole
// life and handed each new state, so a running command's output streams
// into the same card.
class ToolPartWidget : public PartWidget
{
    Q_OBJECT

public:
    ToolPartWidget(const ChatContext &context, QWidget *parent = nullptr);

    void setPart(const Part &part, const Message &message) override;
    QString markdown() const override;
    ToolCard *card() const { return m_card; }

private:
    ToolCard *m_card = nullptr;
    Part m_lastPart;
};

} // namespace qcode
