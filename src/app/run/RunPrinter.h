#pragma once

#include <QCoreApplication>
#include <QHash>
#include <QSet>
#include <QString>

#include <optional>

#include "RunArguments.h"
#include "engine/session/SessionEvents.h"

class QIODevice;

namespace qcode {

struct PromptOutcome;

// What `qcode run` writes while a prompt runs, from the engine's events.
//
// Default format (for a person, and for `$(qcode run …)`): the assistant's
// answer text goes to `out` as its deltas arrive, reasoning is hidden; one
// line per finished or failed tool, retries, refused permissions and
// errors go to `err`. Only the run's own session is shown: a subagent's
// text stays inside its task tool's line.
//
// Json format: every event, of every session, as one compact JSON object
// per line on `out` (OpenCode's {type, properties} bus form); `err` gets
// only the final error, so a script can tell why the exit code is not 0.
class RunPrinter
{
    Q_DECLARE_TR_FUNCTIONS(RunPrinter)

public:
    RunPrinter(RunFormat format, QIODevice *out, QIODevice *err);

    // The session whose answer is shown (default format). Events of other
    // sessions are ignored, except a permission question of its subagents.
    void setSessionID(const QString &sessionID) { m_sessionID = sessionID; }
    // Whether permissions the rules ask about are refused (the line says
    // how to allow them) or approved.
    void setAutoApprove(bool autoApprove) { m_autoApprove = autoApprove; }
    // Buffered: print() keeps what it writes until flush(), so a burst of
    // deltas becomes one write instead of one system call each. Switching
    // between `out` and `err` flushes the other first, so when both go to
    // one terminal the lines still come in event order. Unbuffered (the
    // default): every print() writes at once.
    void setBuffered(bool buffered) { m_buffered = buffered; }
    void flush();

    void print(const SessionEvent &event);
    // Ends the answer's last line and reports the outcome's error on `err`
    // unless an event already said it.
    void finish(const PromptOutcome &outcome);
    // An error of the run itself (no session, a failed start) on `err`.
    void printError(const QString &message);
    // "Note: <message>" on stderr: a config problem that does not stop the run.
    void printNote(const QString &message);

private:
    void printDefault(const SessionEvent &event);
    void onMessage(const Message &message);
    void onPart(const Part &part);
    void onText(const Part &part, const TextPart &text);
    void onTool(const Part &part, const ToolPart &tool);
    void onDelta(const PartDelta &delta);
    void onStatus(const SessionStatusChanged &status);
    void onPermission(const PermissionRequest &request);
    void onError(const SessionError &error);

    void writeOut(const QString &text);
    void writeOut(const QByteArray &bytes);
    void writeErrLine(const QString &line);
    void flushOut();
    void flushErr();
    // Ends an open answer line, so what follows starts on a fresh line.
    void endAnswerLine();

    RunFormat m_format;
    QIODevice *m_out;
    QIODevice *m_err;
    QString m_sessionID;
    bool m_autoApprove = false;
    bool m_buffered = false;
    QByteArray m_outBuffer;
    QByteArray m_errBuffer;

    bool m_headerShown = false;
    bool m_answerLineOpen = false;
    QSet<QString> m_assistantMessages;
    // Text printed so far per streaming text part; removed at part end.
    QHash<QString, QString> m_streaming;
    QSet<QString> m_endedTexts;
    QSet<QString> m_reportedTools; // finished tools already given their line
    QSet<QString> m_announcedTasks;
    QSet<QString> m_reportedPermissions;
    int m_lastRetryAttempt = 0;
    QStringList m_reportedErrors;
};

// Tool lines as `opencode run` prints them: "| Read     src/main.cpp".
namespace RunToolLine {
QString displayName(const QString &tool);
// The state's title; for a tool without one, the argument that says most
// (path, pattern, command …), else the input as compact JSON.
QString summary(const ToolPart &tool);
} // namespace RunToolLine

} // namespace qcode
