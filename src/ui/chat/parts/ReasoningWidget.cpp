#include "ReasoningWidget.h"

#include <QEvent>
#include <QLocale>
#include <QToolButton>
#include <QVBoxLayout>

#include "ui/chat/ChatColors.h"
#include "ui/chat/markdown/MarkdownView.h"
#include "ui/highlight/CodeHighlighter.h"

using namespace Qt::StringLiterals;

namespace qcode {

ReasoningWidget::ReasoningWidget(const ChatContext &context, QWidget *parent)
    : PartWidget(parent), m_highlighter(context.highlighter)
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 2, 0, 2);
    layout->setSpacing(2);
    m_header = new QToolButton(this);
    m_header->setObjectName(u"reasoningHeader"_s);
    m_header->setCheckable(true);
    m_header->setAutoRaise(true);
    m_header->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    m_header->setArrowType(Qt::RightArrow);
    layout->addWidget(m_header, 0, Qt::AlignLeft);
    m_body = new MarkdownView(m_highlighter.get(), this);
    m_body->setObjectName(u"reasoningBody"_s);
    m_body->setContentsMargins(12, 0, 0, 0);
    m_body->setContextMenuPolicy(Qt::NoContextMenu); // the message's own menu has Copy
    m_body->hide();
    layout->addWidget(m_body);
    connect(m_header, &QToolButton::toggled, this, &ReasoningWidget::setExpanded);
    applyColours();
    retranslateUi();
}

void ReasoningWidget::retranslateUi()
{
    m_header->setToolTip(tr("Show or hide the model's reasoning"));
    m_body->setPlaceholderText(tr("(no reasoning text)"));
    renderHeader();
}

ReasoningWidget::~ReasoningWidget()
{
    delete m_body; // before m_highlighter lets go of the highlighter it colours with
}

void ReasoningWidget::setPart(const Part &part, const Message &)
{
    const ReasoningPart *reasoning = part.as<ReasoningPart>();
    if (!reasoning)
        return;
    m_text = reasoning->text;
    m_start = reasoning->time.start;
    m_end = reasoning->time.end;
    renderHeader();
    if (isExpanded())
        renderBody();
}

void ReasoningWidget::appendDelta(const Part &part, const Message &, const QString &, const QString &)
{
    if (const ReasoningPart *reasoning = part.as<ReasoningPart>())
        m_text = reasoning->text;
    if (isExpanded())
        renderBody();
}

QString ReasoningWidget::markdown() const
{
    return {};
}

bool ReasoningWidget::isExpanded() const
{
    return m_header->isChecked();
}

void ReasoningWidget::setExpanded(bool expanded)
{
    if (m_header->isChecked() != expanded)
        m_header->setChecked(expanded); // comes back here through toggled
    m_header->setArrowType(expanded ? Qt::DownArrow : Qt::RightArrow);
    if (expanded)
        renderBody();
    m_body->setVisible(expanded);
}

QString ReasoningWidget::headerText() const
{
    return m_header->text();
}

void ReasoningWidget::renderHeader()
{
    if (!m_end) {
        m_header->setText(tr("Thinking…"));
        return;
    }
    const double seconds = double(std::max<qint64>(*m_end - m_start, 0)) / 1000.0;
    m_header->setText(tr("Thought for %1 s").arg(QLocale().toString(seconds, 'f', 1)));
}

void ReasoningWidget::renderBody()
{
    m_body->showMarkdown(m_text);
}

void ReasoningWidget::changeEvent(QEvent *event)
{
    PartWidget::changeEvent(event);
    if (event->type() == QEvent::PaletteChange)
        applyColours();
    else if (event->type() == QEvent::LanguageChange)
        retranslateUi();
}

void ReasoningWidget::applyColours()
{
    QPalette palette = m_body->palette();
    palette.setColor(QPalette::Text, ChatColors::muted(this->palette()));
    m_body->setPalette(palette);
}

} // namespace qcode
