#include "ScriptedToolRunner.h"

#include <QCoro/QCoroSignal>

#include "engine/session/asks/PermissionAsker.h"

using namespace Qt::StringLiterals;

namespace qcode::test {

QCoro::Task<ToolResult> ScriptedToolRunner::run(ToolCall call, ToolContext context)
{
    m_calls.append(call);
    m_contexts.append(context);
    Q_EMIT started(call.callID);
    if (m_held.contains(call.tool)) {
        if (context.abort && !context.abort->isAborted())
            co_await qCoro(context.abort.data(), &AbortSignal::aborted);
        const ToolResult interrupted = ToolFailure{u"interrupted"_s, ToolFailure::Kind::Failed};
        co_return interrupted;
    }
    QPointer<ScriptedToolRunner> self(this);
    if (m_asking.contains(call.tool)) {
        if (!context.permissions)
            co_return ToolFailure{u"nobody to ask"_s, ToolFailure::Kind::Failed};
        PermissionRequest request;
        request.permission = call.tool;
        request.patterns = {call.callID};
        request.always = {call.callID};
        request.tool = PermissionToolRef{context.messageID, call.callID};
        QCoro::Task<PermissionAnswer> asking = context.permissions->ask(request, context.abort);
        const PermissionAnswer answer = co_await asking;
        if (!self)
            co_return ToolFailure{u"the tool runner is gone"_s, ToolFailure::Kind::Failed};
        if (!answer.allows())
            co_return ToolFailure{u"The user rejected permission to use this specific tool call."_s,
                                  answer.byRule ? ToolFailure::Kind::Failed : ToolFailure::Kind::PermissionRejected};
    }
    if (m_gated.contains(call.tool)) {
        QMetaObject::Connection stop;
        if (context.abort)
            stop = connect(context.abort.data(), &AbortSignal::aborted, this, &ScriptedToolRunner::released);
        const int releases = m_releases;
        do {
            co_await qCoro(this, &ScriptedToolRunner::released);
            if (!self)
                co_return ToolFailure{u"the tool runner is gone"_s, ToolFailure::Kind::Failed};
        } while (m_releases == releases && !m_releasedCalls.contains(call.callID) && context.abort
                 && !context.abort->isAborted());
        disconnect(stop);
    }
    const ToolResult fallback = ToolOutput{call.tool + u" done"_s, call.tool, {}, {}};
    const ToolResult result = m_results.value(call.tool, fallback);
    co_return result;
}

QList<ToolDefinition> ScriptedToolRunner::definitions(const ToolScope &scope) const
{
    m_scopes.append(scope);
    QStringList names = m_results.keys() + m_held + m_gated + m_asking;
    names.sort();
    names.removeDuplicates();
    QList<ToolDefinition> definitions;
    for (const QString &name : std::as_const(names)) {
        if (scope.disabled.contains(name))
            continue;
        definitions.append({name, QStringLiteral("The scripted %1 tool.").arg(name),
                            QJsonObject{{QStringLiteral("type"), QStringLiteral("object")}}});
    }
    return definitions;
}

} // namespace qcode::test
