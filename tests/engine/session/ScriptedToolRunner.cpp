#include "ScriptedToolRunner.h"

#include <QCoro/QCoroSignal>

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
    if (m_gated.contains(call.tool)) {
        QPointer<ScriptedToolRunner> self(this);
        QMetaObject::Connection stop;
        if (context.abort)
            stop = connect(context.abort.data(), &AbortSignal::aborted, this, &ScriptedToolRunner::released);
        co_await qCoro(this, &ScriptedToolRunner::released);
        if (!self)
            co_return ToolFailure{u"the tool runner is gone"_s, ToolFailure::Kind::Failed};
        disconnect(stop);
    }
    const ToolResult fallback = ToolOutput{call.tool + u" done"_s, call.tool, {}, {}};
    const ToolResult result = m_results.value(call.tool, fallback);
    co_return result;
}

QList<ToolDefinition> ScriptedToolRunner::definitions(const ToolScope &scope) const
{
    m_scopes.append(scope);
    QStringList names = m_results.keys() + m_held + m_gated;
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
