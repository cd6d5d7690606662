#include "CompactionDivider.h"

#include <QEvent>
#include <QFrame>
#include <QHBoxLayout>
#include <QLabel>

#include "ui/chat/ChatColors.h"

using namespace Qt::StringLiterals;

namespace qcode {
namespace {

QFrame *rule(QWidget *parent)
{
    auto *line = new QFrame(parent);
    line->setFrameShape(QFrame::HLine);
    line->setFrameShadow(QFrame::Plain);
    return line;
}

} // namespace

CompactionDivider::CompactionDivider(QWidget *parent) : PartWidget(parent)
{
    setObjectName(u"compactionDivider"_s);
    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 8, 0, 8);
    layout->setSpacing(10);
    m_before = rule(this);
    m_label = new QLabel(this);
    m_label->setObjectName(u"compactionLabel"_s);
    m_label->setTextFormat(Qt::PlainText);
    m_after = rule(this);
    layout->addWidget(m_before, 1);
    layout->addWidget(m_label, 0);
    layout->addWidget(m_after, 1);
    applyColours();
    retranslateUi();
}

void CompactionDivider::setPart(const Part &part, const Message &)
{
    if (const auto *compaction = std::get_if<CompactionPart>(&part.body))
        m_automatic = compaction->automatic;
    retranslateUi();
}

QString CompactionDivider::markdown() const
{
    return u"---\n\n_"_s + m_label->text() + u"_"_s;
}

QString CompactionDivider::text() const
{
    return m_label->text();
}

void CompactionDivider::retranslateUi()
{
    m_label->setText(tr("Earlier messages summarised here"));
    m_label->setToolTip(m_automatic
                            ? tr("The conversation grew too long for the model, so it was summarised; "
                                 "the model reads the summary below instead of the messages above it.")
                            : tr("You asked for a summary; the model reads the summary below instead of the "
                                 "messages above it."));
}

void CompactionDivider::changeEvent(QEvent *event)
{
    PartWidget::changeEvent(event);
    if (event->type() == QEvent::PaletteChange)
        applyColours();
    else if (event->type() == QEvent::LanguageChange)
        retranslateUi();
}

void CompactionDivider::applyColours()
{
    const QColor muted = ChatColors::muted(palette());
    for (QWidget *widget : {static_cast<QWidget *>(m_label), static_cast<QWidget *>(m_before),
                            static_cast<QWidget *>(m_after)}) {
        QPalette own = widget->palette();
        own.setColor(QPalette::WindowText, muted);
        widget->setPalette(own);
    }
}

} // namespace qcode
