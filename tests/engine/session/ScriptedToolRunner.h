#pragma once

#include <QHash>
#include <QList>
#include <QObject>
#include <QSet>

#include "engine/session/loop/ToolRunner.h"

namespace qcode::test {

// A ToolRunner for processor tests: answers each call with the result
// scripted for its tool (by default a completed "<tool> done"), records the
// calls, and can hold a call until the prompt is aborted.
class ScriptedToolRunner : public QObject, public ToolRunner
{
    Q_OBJECT

public:
    using QObject::QObject;

    void script(const QString &tool, const ToolResult &result) { m_results.insert(tool, result); }
    // Calls of `tool` wait for the abort, then fail.
    void holdUntilAbort(const QString &tool) { m_held.append(tool); }
    // Calls of `tool` wait for release() (or an abort), then complete as
    // scripted; the test does what it needs while the session is busy.
    void holdUntilReleased(const QString &tool) { m_gated.append(tool); }
    // Releases every held call waiting now.
    void release()
    {
        ++m_releases;
        Q_EMIT released();
    }
    // Releases one held call, whenever it waits.
    void release(const QString &callID)
    {
        m_releasedCalls.insert(callID);
        Q_EMIT released();
    }
    // Calls of `tool` first ask for permission `tool` with the call id as
    // their pattern, through the context's asker; a no fails the call as
    // the real tools do.
    void askFirst(const QString &tool) { m_asking.append(tool); }

    QCoro::Task<ToolResult> run(ToolCall call, ToolContext context) override;
    // One definition per scripted or held tool, named after it; the scopes
    // asked for are recorded.
    QList<ToolDefinition> definitions(const ToolScope &scope) const override;
    const QList<ToolScope> &scopes() const { return m_scopes; }

    const QList<ToolCall> &calls() const { return m_calls; }
    const QList<ToolContext> &contexts() const { return m_contexts; }

Q_SIGNALS:
    void started(const QString &callID);
    void released();

private:
    QHash<QString, ToolResult> m_results;
    QStringList m_held;
    QStringList m_gated;
    QStringList m_asking;
    int m_releases = 0;
    QSet<QString> m_releasedCalls;
    QList<ToolCall> m_calls;
    QList<ToolContext> m_contexts;
    mutable QList<ToolScope> m_scopes;
};

} // namespace qcode::test
