#pragma once

#include <QCoreApplication>
#include <QString>

#include <optional>

#include "model/Result.h"
#include "model/SessionFiles.h"

namespace qcode {

// `qcode export <sessionID> [--format json|markdown] [--output FILE]`.
struct ExportArguments {
    QString sessionID; // an id, or a prefix that names one session
    std::optional<SessionFiles::Format> format; // --format; absent: from --output's name, else JSON
    QString output; // --output as given; empty: standard output
    bool help = false;

    // The format to write: --format, else .md/.markdown in --output's name
    // for Markdown, else OpenCode's JSON (what `opencode export` prints).
    SessionFiles::Format effectiveFormat() const;
};

// `qcode import <FILE>`; "-" is standard input.
struct ImportArguments {
    QString file;
    bool help = false;

    bool readsStandardInput() const { return file == QLatin1StringView("-"); }
};

// `qcode sessions [--dir DIR]`.
struct SessionsArguments {
    QString directory; // --dir as given; empty: every folder
    bool help = false;
};

// The command lines of export, import and sessions, checked for form only:
// whether the session, file or folder exists is decided when it runs
// (TransferCommand).
class TransferArgumentParser
{
    Q_DECLARE_TR_FUNCTIONS(TransferArgumentParser)

public:
    // `arguments` are the words after the command's name.
    static Result<ExportArguments> parseExport(const QStringList &arguments);
    static Result<ImportArguments> parseImport(const QStringList &arguments);
    static Result<SessionsArguments> parseSessions(const QStringList &arguments);

    static QString exportHelp();
    static QString importHelp();
    static QString sessionsHelp();
};

} // namespace qcode
