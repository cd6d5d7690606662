#include "ToolPartWidget.h"

#include <QVBoxLayout>

#include "model/SessionMarkdown.h"
#include "ui/chat/tool/ToolCard.h"

namespace qcode {

ToolPartWidget::ToolPartWidget(const ChatContext &context, QWidget *parent) : PartWidget(parent)
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    m_card = new ToolCard(ToolCardContext{context.projectDirectory, context.clock, context.highlighter.get(), context.asks, context.showChanges}, this);
    layout->addWidget(m_card);
    connect(m_card, &ToolCard::openSessionRequested, this, &PartWidget::openSessionRequested);
    connect(m_card, &ToolCard::heightChanged, this, [this] { updateGeometry(); });
}

void ToolPartWidget::setPart(const Part &part, const Message &)
{
    m_card->setPart(part);
    m_lastPart = part; // rendered as Markdown only when copied
}

QString ToolPartWidget::markdown() const
{
    return SessionMarkdown::renderPart(m_lastPart);
}

} // namespace qcode
