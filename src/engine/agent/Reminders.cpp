#include "Reminders.h"

#include "PromptLibrary.h"
#include "model/Identifier.h"

using namespace Qt::StringLiterals;

namespace qcode::Reminders {

namespace {

qsizetype lastUserIndex(const QList<MessageWithParts> &history)
{
    for (qsizetype i = history.size() - 1; i >= 0; --i) {
        if (history.at(i).info.isUser())
            return i;
    }
    return -1;
}

bool planAnsweredBefore(const QList<MessageWithParts> &history)
{
    return std::any_of(history.cbegin(), history.cend(), [](const MessageWithParts &m) {
        const AssistantMessage *assistant = m.info.assistant();
        return assistant && assistant->agent == "plan"_L1;
    });
}

} // namespace

QStringList forStep(const QList<MessageWithParts> &history, const QString &agentName)
{
    QStringList texts;
    if (lastUserIndex(history) < 0)
        return texts;
    if (agentName == "plan"_L1)
        texts.append(PromptLibrary::text(PromptText::PlanReminder));
    if (agentName == "build"_L1 && planAnsweredBefore(history))
        texts.append(PromptLibrary::text(PromptText::BuildSwitch));
    return texts;
}

QList<MessageWithParts> withReminders(QList<MessageWithParts> history, const QString &agentName)
{
    const QStringList texts = forStep(history, agentName);
    if (texts.isEmpty())
        return history;
    MessageWithParts &user = history[lastUserIndex(history)];
    for (const QString &text : texts) {
        Part part;
        part.id = Identifier::ascending(Identifier::Prefix::Part);
        part.sessionID = user.info.sessionID();
        part.messageID = user.info.id();
        TextPart body;
        body.text = text;
        body.synthetic = true;
        part.body = body;
        user.parts.append(part);
    }
    return history;
}

} // namespace qcode::Reminders
