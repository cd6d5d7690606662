#include "McpServerStatus.h"

using namespace Qt::StringLiterals;

namespace qcode {

QString McpServerStatus::stateName() const
{
    switch (state) {
    case State::Connecting:
        return u"connecting"_s;
    case State::Connected:
        return u"connected"_s;
    case State::Disabled:
        return u"disabled"_s;
    case State::Failed:
        return u"failed"_s;
    case State::NeedsAuth:
        return u"needs_auth"_s;
    }
    return {};
}

QJsonObject McpServerStatus::toJson() const
{
    QJsonObject out{{u"status"_s, stateName()}};
    if (state == State::Failed)
        out.insert(u"error"_s, error);
    return out;
}

QString McpServerStatus::describe() const
{
    switch (state) {
    case State::Connecting:
        return tr("connecting");
    case State::Connected:
        return tr("connected (%n tool(s))", nullptr, toolCount);
    case State::Disabled:
        return tr("disabled");
    case State::Failed:
        return tr("failed: %1").arg(error);
    case State::NeedsAuth:
        return tr("needs authentication");
    }
    return {};
}

} // namespace qcode
