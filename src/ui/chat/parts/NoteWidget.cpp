#include "NoteWidget.h"

#include <QEvent>
#include <QJsonObject>
#include <QLabel>
#include <QVBoxLayout>

#include "model/Overloaded.h"
#include "ui/chat/ChatColors.h"

using namespace Qt::StringLiterals;

namespace qcode {

NoteWidget::NoteWidget(QWidget *parent) : PartWidget(parent)
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 2, 0, 2);
    m_label = new QLabel(this);
    m_label->setObjectName(u"note"_s);
    m_label->setTextFormat(Qt::PlainText);
    m_label->setWordWrap(true);
    m_label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    QFont small = m_label->font();
    small.setPointSizeF(small.pointSizeF() * 0.9);
    m_label->setFont(small);
    layout->addWidget(m_label);
    applyColours();
}

void NoteWidget::setPart(const Part &part, const Message &)
{
    m_part = part;
    m_label->setText(describe(part));
}

QString NoteWidget::markdown() const
{
    return u"_"_s + m_label->text() + u"_"_s;
}

QString NoteWidget::text() const
{
    return m_label->text();
}

QString NoteWidget::describe(const Part &part)
{
    return std::visit(
        Overloaded{
            [](const PatchPart &patch) {
                QStringList names;
                for (const QString &file : patch.files.mid(0, 5))
                    names.append(file.section(u'/', -1));
                QString line = tr("Changed %n file(s): %1", nullptr, int(patch.files.size())).arg(names.join(u", "_s));
                if (patch.files.size() > 5)
                    line += tr(" and %n more", nullptr, int(patch.files.size() - 5));
                return line;
            },
            [](const CompactionPart &compaction) {
                return compaction.automatic ? tr("The conversation was summarized to fit the model's context.")
                                            : tr("Summarize the conversation so far.");
            },
            [](const RetryPart &retry) {
                const QString why = retry.error.value("data"_L1).toObject().value("message"_L1).toString();
                return why.isEmpty() ? tr("Attempt %1 failed; retried.").arg(retry.attempt)
                                     : tr("Attempt %1 failed (%2); retried.").arg(retry.attempt).arg(why);
            },
            [](const SubtaskPart &subtask) {
                return tr("Subtask for @%1: %2").arg(subtask.agent, subtask.description);
            },
            [](const AgentPart &agent) { return tr("Mentioned agent @%1").arg(agent.name); },
            [](const UnknownPart &unknown) {
                return tr("A “%1” part, from a newer version, is not shown.").arg(unknown.type);
            },
            [](const auto &) { return QString(); },
        },
        part.body);
}

void NoteWidget::changeEvent(QEvent *event)
{
    PartWidget::changeEvent(event);
    if (event->type() == QEvent::PaletteChange)
        applyColours();
    else if (event->type() == QEvent::LanguageChange)
        m_label->setText(describe(m_part));
}

void NoteWidget::applyColours()
{
    QPalette palette = m_label->palette();
    palette.setColor(QPalette::WindowText, ChatColors::muted(this->palette()));
    m_label->setPalette(palette);
}

} // namespace qcode
