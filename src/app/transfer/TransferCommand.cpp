#include "TransferCommand.h"

#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QLoggingCategory>

#include <algorithm>
#include <cstdio>
#include <functional>

#include "SessionIdLookup.h"
#include "engine/config/DataPaths.h"
#include "model/SessionFiles.h"
#include "model/Store.h"

using namespace Qt::StringLiterals;

namespace qcode {

namespace {

// Exports are read a piece at a time, so an endless stream is refused at
// SessionFiles::MaxImportBytes instead of filling memory.
constexpr qint64 ReadChunkBytes = 1024 * 1024;

bool isInside(const QString &path, const QString &folder)
{
    const QString cleanPath = QDir::cleanPath(path);
    const QString cleanFolder = QDir::cleanPath(folder);
    // "/" cleans to itself, every other folder loses its trailing slash.
    const QString prefix = cleanFolder.endsWith(u'/') ? cleanFolder : cleanFolder + u'/';
    return cleanPath == cleanFolder || cleanPath.startsWith(prefix);
}

// Parses, answers --help, or runs: the part every command shares.
template <typename Arguments>
int dispatch(const QString &command, const Result<Arguments> &parsed, const QString &help, QIODevice &out,
             QIODevice &err, const std::function<int(const Arguments &)> &run)
{
    if (!parsed) {
        err.write(u"qcode %1: %2\n%3\n"_s
                      .arg(command, parsed.error().message,
                           TransferCommand::tr("Try `qcode %1 --help`.").arg(command))
                      .toLocal8Bit());
        return TransferExit::BadArguments;
    }
    if (parsed->help) {
        out.write(help.toLocal8Bit());
        return TransferExit::Finished;
    }
    return run(*parsed);
}

} // namespace

TransferCommand::TransferCommand(QString databasePath, QString currentDirectory, QIODevice *in, QIODevice *out,
                                 QIODevice *err)
    : m_databasePath(std::move(databasePath)), m_currentDirectory(std::move(currentDirectory)), m_in(in), m_out(out),
      m_err(err)
{
}

bool TransferCommand::isCommand(const QString &word)
{
    return word == "export"_L1 || word == "import"_L1 || word == "sessions"_L1;
}

int TransferCommand::exportSession(const ExportArguments &arguments)
{
    const QString command = u"export"_s;
    // Looking for a session must not create an empty database.
    if (!QFileInfo::exists(m_databasePath))
        return fail(command, tr("Session not found: %1. There is no database at %2 yet.")
                                 .arg(arguments.sessionID, QDir::toNativeSeparators(m_databasePath)));
    QString sessionID;
    {
        Result<std::unique_ptr<Store>> store = Store::open(m_databasePath);
        if (!store)
            return fail(command, store.error().message);
        const Result<Session> session = SessionIdLookup::find(**store, arguments.sessionID);
        if (!session)
            return fail(command, session.error().message);
        sessionID = session->id;
    }

    const SessionFiles::Format format = arguments.effectiveFormat();
    if (!arguments.output.isEmpty()) {
        const QString target = QDir(m_currentDirectory).absoluteFilePath(arguments.output);
        const Result<void> written = SessionFiles::exportTo(m_databasePath, sessionID, target, format);
        if (!written)
            return fail(command, written.error().message);
        return TransferExit::Finished;
    }
    const Result<QByteArray> bytes = SessionFiles::render(m_databasePath, sessionID, format);
    if (!bytes)
        return fail(command, bytes.error().message);
    if (!print(*bytes))
        return fail(command, tr("Cannot write to standard output."));
    return TransferExit::Finished;
}

int TransferCommand::importSession(const ImportArguments &arguments)
{
    const QString command = u"import"_s;
    const Result<QByteArray> json = readExport(arguments);
    if (!json)
        return fail(command, json.error().message);
    // SessionFiles checks the whole export before it opens the database.
    const Result<Session> imported = SessionFiles::importJson(m_databasePath, *json);
    if (!imported)
        return fail(command, imported.error().message);
    if (!print((imported->id + u"  "_s + imported->title + u'\n').toUtf8()))
        return fail(command, tr("The session %1 was imported, but standard output cannot be written.")
                                 .arg(imported->id));
    return TransferExit::Finished;
}

int TransferCommand::listSessions(const SessionsArguments &arguments)
{
    const QString command = u"sessions"_s;
    // No database yet: no sessions, and none is created for asking.
    if (!QFileInfo::exists(m_databasePath))
        return TransferExit::Finished;
    Result<std::unique_ptr<Store>> store = Store::open(m_databasePath);
    if (!store)
        return fail(command, store.error().message);
    Result<QList<Session>> all = (*store)->allSessions();
    if (!all)
        return fail(command, all.error().message);

    const QString folder =
        arguments.directory.isEmpty() ? QString() : QDir(m_currentDirectory).absoluteFilePath(arguments.directory);
    QList<Session> listed;
    for (const Session &session : std::as_const(*all)) {
        if (!session.isChild() && (folder.isEmpty() || isInside(session.directory, folder)))
            listed.append(session);
    }
    std::stable_sort(listed.begin(), listed.end(),
                     [](const Session &a, const Session &b) { return a.time.updated > b.time.updated; });
    QString text;
    for (const Session &session : std::as_const(listed)) {
        const QString updated = QDateTime::fromMSecsSinceEpoch(session.time.updated).toString(u"yyyy-MM-dd HH:mm"_s);
        text += session.id + u"  "_s + updated + u"  "_s + session.title + u'\n';
    }
    if (!print(text.toUtf8()))
        return fail(command, tr("Cannot write to standard output."));
    return TransferExit::Finished;
}

Result<QByteArray> TransferCommand::readExport(const ImportArguments &arguments)
{
    QFile file;
    QIODevice *device = m_in;
    QString name = tr("standard input");
    if (!arguments.readsStandardInput()) {
        const QString path = QDir(m_currentDirectory).absoluteFilePath(arguments.file);
        name = QDir::toNativeSeparators(path);
        if (QFileInfo(path).isDir())
            return Error{tr("%1 is a folder, not a session export.").arg(name)};
        file.setFileName(path);
        if (!file.open(QIODevice::ReadOnly))
            return Error{tr("Cannot read %1: %2").arg(name, file.errorString())};
        device = &file;
    }
    if (!device)
        return Error{tr("Cannot read standard input.")};

    QByteArray bytes;
    QByteArray chunk(ReadChunkBytes, Qt::Uninitialized);
    for (;;) {
        const qint64 read = device->read(chunk.data(), chunk.size());
        if (read < 0)
            return Error{tr("Cannot read %1: %2").arg(name, device->errorString())};
        if (read == 0)
            break;
        bytes.append(chunk.constData(), read);
        if (bytes.size() > SessionFiles::MaxImportBytes)
            return Error{tr("%1 is too large to be a session export (more than %2 MB).")
                             .arg(name)
                             .arg(SessionFiles::MaxImportBytes / (1024 * 1024))};
    }
    return bytes;
}

bool TransferCommand::print(const QByteArray &bytes)
{
    return m_out && m_out->write(bytes) == bytes.size();
}

int TransferCommand::fail(const QString &command, const QString &message)
{
    if (m_err)
        m_err->write(u"qcode %1: %2\n"_s.arg(command, message).toLocal8Bit());
    return TransferExit::Failed;
}

int transferCommandMain(const QString &command, const QStringList &arguments)
{
    QFile in;
    QFile out;
    QFile err;
    if (!out.open(fileno(stdout), QIODevice::WriteOnly | QIODevice::Unbuffered, QFileDevice::DontCloseHandle) ||
        !err.open(fileno(stderr), QIODevice::WriteOnly | QIODevice::Unbuffered, QFileDevice::DontCloseHandle)) {
        std::fprintf(stderr, "qcode %s: cannot write to standard output\n", qPrintable(command));
        return TransferExit::Failed;
    }
    // Only `qcode import -` reads it; a closed standard input is that
    // command's error, not every command's.
    const bool hasInput = in.open(fileno(stdin), QIODevice::ReadOnly, QFileDevice::DontCloseHandle);
    // The store's progress notes are for the app's log; these commands
    // print only their answer. QT_LOGGING_RULES still overrides.
    QLoggingCategory::setFilterRules(u"qcode.*.info=false\nqcode.info=false"_s);

    TransferCommand runner(DataPaths::databaseFile(), QDir::currentPath(), hasInput ? &in : nullptr, &out, &err);
    if (command == "export"_L1)
        return dispatch<ExportArguments>(command, TransferArgumentParser::parseExport(arguments),
                                         TransferArgumentParser::exportHelp(), out, err,
                                         [&runner](const ExportArguments &a) { return runner.exportSession(a); });
    if (command == "import"_L1)
        return dispatch<ImportArguments>(command, TransferArgumentParser::parseImport(arguments),
                                         TransferArgumentParser::importHelp(), out, err,
                                         [&runner](const ImportArguments &a) { return runner.importSession(a); });
    if (command == "sessions"_L1)
        return dispatch<SessionsArguments>(command, TransferArgumentParser::parseSessions(arguments),
                                           TransferArgumentParser::sessionsHelp(), out, err,
                                           [&runner](const SessionsArguments &a) { return runner.listSessions(a); });
    err.write(u"qcode: %1\n"_s.arg(TransferCommand::tr("Unknown command \"%1\".").arg(command)).toLocal8Bit());
    return TransferExit::BadArguments;
}

} // namespace qcode
