#include "PromptLibrary.h"

#include <QFile>
#include <QHash>
#include <QMutex>

#include "AgentLogging.h"

using namespace Qt::StringLiterals;

namespace qcode::PromptLibrary {

namespace {

QString fileName(PromptText prompt)
{
    switch (prompt) {
    case PromptText::Anthropic: return u"anthropic"_s;
    case PromptText::Beast: return u"beast"_s;
    case PromptText::Codex: return u"codex"_s;
    case PromptText::Gemini: return u"gemini"_s;
    case PromptText::Trinity: return u"trinity"_s;
    case PromptText::Default: return u"default"_s;
    case PromptText::Explore: return u"explore"_s;
    case PromptText::Compaction: return u"compaction"_s;
    case PromptText::Title: return u"title"_s;
    case PromptText::Summary: return u"summary"_s;
    case PromptText::PlanReminder: return u"plan-reminder"_s;
    case PromptText::BuildSwitch: return u"build-switch"_s;
    case PromptText::MaxSteps: return u"max-steps"_s;
    case PromptText::CompactionRequest: return u"compaction-request"_s;
    }
    return u"default"_s;
}

} // namespace

QString resourcePath(PromptText prompt)
{
    return u":/qcode/prompts/%1.txt"_s.arg(fileName(prompt));
}

QString text(PromptText prompt)
{
    // Read once per process; the engine thread and tests may both ask.
    static QMutex mutex;
    static QHash<PromptText, QString> cache;
    const QMutexLocker lock(&mutex);
    const auto it = cache.constFind(prompt);
    if (it != cache.constEnd())
        return *it;
    QFile file(resourcePath(prompt));
    QString text;
    if (file.open(QIODevice::ReadOnly)) {
        text = QString::fromUtf8(file.readAll());
        while (!text.isEmpty() && text.back().isSpace())
            text.chop(1);
    } else {
        qCWarning(lcAgents) << "the prompt" << file.fileName() << "is missing from this build";
    }
    cache.insert(prompt, text);
    return text;
}

} // namespace qcode::PromptLibrary
