#include "ProviderEvent.h"

using namespace Qt::StringLiterals;

namespace qcode {

namespace {

struct EventName {
    QString operator()(const StartEvent &) const { return u"start"_s; }
    QString operator()(const StartStepEvent &) const { return u"start-step"_s; }
    QString operator()(const ReasoningStartEvent &) const { return u"reasoning-start"_s; }
    QString operator()(const ReasoningDeltaEvent &) const { return u"reasoning-delta"_s; }
    QString operator()(const ReasoningEndEvent &) const { return u"reasoning-end"_s; }
    QString operator()(const TextStartEvent &) const { return u"text-start"_s; }
    QString operator()(const TextDeltaEvent &) const { return u"text-delta"_s; }
    QString operator()(const TextEndEvent &) const { return u"text-end"_s; }
    QString operator()(const ToolInputStartEvent &) const { return u"tool-input-start"_s; }
    QString operator()(const ToolInputDeltaEvent &) const { return u"tool-input-delta"_s; }
    QString operator()(const ToolInputEndEvent &) const { return u"tool-input-end"_s; }
    QString operator()(const ToolCallEvent &) const { return u"tool-call"_s; }
    QString operator()(const FinishStepEvent &) const { return u"finish-step"_s; }
    QString operator()(const FinishEvent &) const { return u"finish"_s; }
    QString operator()(const ErrorEvent &) const { return u"error"_s; }
};

} // namespace

QString providerEventName(const ProviderEvent &event)
{
    return std::visit(EventName{}, event);
}

} // namespace qcode
