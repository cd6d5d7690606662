#pragma once

#include <QByteArray>
#include <QCoreApplication>
#include <QString>
#include <QStringList>

#include "TransferArguments.h"
#include "model/Result.h"

class QIODevice;

namespace qcode {

// Exit statuses of `qcode export`, `qcode import` and `qcode sessions`,
// the same as `qcode run`'s.
namespace TransferExit {
constexpr int Finished = 0;
constexpr int Failed = 1;
constexpr int BadArguments = 2;
} // namespace TransferExit

// The headless session commands, against the database at `databasePath`
// (the app's, opened beside a running window: SQLite's WAL lets both
// read and write). Each runs to its end on the calling thread and returns
// its exit status; errors go to `err` as one line naming the problem, and
// nothing is written for a command that fails.
class TransferCommand
{
    Q_DECLARE_TR_FUNCTIONS(TransferCommand)

public:
    // `currentDirectory` resolves relative --output, FILE and --dir paths.
    TransferCommand(QString databasePath, QString currentDirectory, QIODevice *in, QIODevice *out, QIODevice *err);

    int exportSession(const ExportArguments &arguments);
    int importSession(const ImportArguments &arguments);
    int listSessions(const SessionsArguments &arguments);

    // True for the words this class answers after `qcode`.
    static bool isCommand(const QString &word);

private:
    Result<QByteArray> readExport(const ImportArguments &arguments);
    bool print(const QByteArray &bytes);
    int fail(const QString &command, const QString &message);

    QString m_databasePath;
    QString m_currentDirectory;
    QIODevice *m_in;
    QIODevice *m_out;
    QIODevice *m_err;
};

// `qcode export|import|sessions …` from main(): `command` is the word after
// `qcode`, `arguments` the words after it. Needs a QCoreApplication, no
// display.
int transferCommandMain(const QString &command, const QStringList &arguments);

} // namespace qcode
