#include "TransferArguments.h"

#include <QCommandLineParser>
#include <QFileInfo>

#include "OptionValue.h"

using namespace Qt::StringLiterals;

namespace qcode {

namespace {

const QCommandLineOption HelpOption{{u"h"_s, u"help"_s}};

// Parses `arguments` with `options` plus --help; an error in the parser's
// own words (unknown option, missing value) when the form is wrong.
Result<void> parse(QCommandLineParser &parser, const QString &command, const QList<QCommandLineOption> &options,
                   const QStringList &arguments)
{
    parser.setSingleDashWordOptionMode(QCommandLineParser::ParseAsCompactedShortOptions);
    parser.addOptions(options);
    parser.addOption(HelpOption);
    if (!parser.parse(QStringList{command} + arguments))
        return Error{parser.errorText()};
    return {};
}

// The one positional argument `what` names, or an error for none or more.
Result<QString> onePositional(const QCommandLineParser &parser, const QString &what)
{
    const QStringList positional = parser.positionalArguments();
    if (positional.isEmpty() || positional.constFirst().trimmed().isEmpty())
        return Error{TransferArgumentParser::tr("Missing %1.").arg(what)};
    if (positional.size() > 1)
        return Error{TransferArgumentParser::tr("Expected one %1, got %2: %3.")
                         .arg(what)
                         .arg(positional.size())
                         .arg(positional.join(u' '))};
    return positional.constFirst();
}

bool isMarkdownName(const QString &path)
{
    const QString suffix = QFileInfo(path).suffix();
    return suffix.compare("md"_L1, Qt::CaseInsensitive) == 0 || suffix.compare("markdown"_L1, Qt::CaseInsensitive) == 0;
}

} // namespace

SessionFiles::Format ExportArguments::effectiveFormat() const
{
    if (format)
        return *format;
    return !output.isEmpty() && isMarkdownName(output) ? SessionFiles::Format::Markdown : SessionFiles::Format::Json;
}

Result<ExportArguments> TransferArgumentParser::parseExport(const QStringList &arguments)
{
    const QCommandLineOption format{u"format"_s, {}, u"FORMAT"_s};
    const QCommandLineOption output{{u"o"_s, u"output"_s}, {}, u"FILE"_s};
    QCommandLineParser parser;
    if (Result<void> parsed = parse(parser, u"qcode-export"_s, {format, output}, arguments); !parsed)
        return parsed.error();

    ExportArguments result;
    result.help = parser.isSet(HelpOption);
    if (result.help)
        return result;
    Result<QString> sessionID = onePositional(parser, tr("session id"));
    if (!sessionID)
        return sessionID.error();
    result.sessionID = sessionID->trimmed();

    Result<std::optional<QString>> formatValue = OptionValue::single(parser, format);
    if (!formatValue)
        return formatValue.error();
    if (formatValue->has_value()) {
        const QString name = (*formatValue)->toLower();
        if (name == "json"_L1)
            result.format = SessionFiles::Format::Json;
        else if (name == "markdown"_L1 || name == "md"_L1)
            result.format = SessionFiles::Format::Markdown;
        else
            return Error{tr("--format \"%1\" is not one of: json, markdown.").arg(**formatValue)};
    }

    Result<std::optional<QString>> outputValue = OptionValue::single(parser, output);
    if (!outputValue)
        return outputValue.error();
    result.output = outputValue->value_or(QString());
    return result;
}

Result<ImportArguments> TransferArgumentParser::parseImport(const QStringList &arguments)
{
    QCommandLineParser parser;
    if (Result<void> parsed = parse(parser, u"qcode-import"_s, {}, arguments); !parsed)
        return parsed.error();
    ImportArguments result;
    result.help = parser.isSet(HelpOption);
    if (result.help)
        return result;
    Result<QString> file = onePositional(parser, tr("file to import"));
    if (!file)
        return file.error();
    result.file = *file;
    return result;
}

Result<SessionsArguments> TransferArgumentParser::parseSessions(const QStringList &arguments)
{
    const QCommandLineOption dir{u"dir"_s, {}, u"DIR"_s};
    QCommandLineParser parser;
    if (Result<void> parsed = parse(parser, u"qcode-sessions"_s, {dir}, arguments); !parsed)
        return parsed.error();
    SessionsArguments result;
    result.help = parser.isSet(HelpOption);
    if (result.help)
        return result;
    if (!parser.positionalArguments().isEmpty())
        return Error{tr("Unexpected argument: %1.").arg(parser.positionalArguments().join(u' '))};
    Result<std::optional<QString>> dirValue = OptionValue::single(parser, dir);
    if (!dirValue)
        return dirValue.error();
    result.directory = dirValue->value_or(QString());
    return result;
}

QString TransferArgumentParser::exportHelp()
{
    return tr("Usage: qcode export [options] <sessionID>\n"
              "\n"
              "Writes one stored session with all its messages and parts, without opening a window.\n"
              "The id may be shortened to any beginning of it that names one session (`qcode sessions`\n"
              "lists them).\n"
              "\n"
              "Options:\n"
              "  --format json|markdown    json: OpenCode's export shape, as `opencode export` prints it,\n"
              "                            for `qcode import` or `opencode import`. markdown: a document\n"
              "                            to read. Default: json, or markdown when --output ends in .md.\n"
              "  -o, --output FILE         Write to FILE, replaced whole or not at all, instead of\n"
              "                            standard output.\n"
              "  -h, --help                Show this help.\n"
              "\n"
              "Exit status: 0 when written, 1 when the session or the database cannot be read or the\n"
              "file cannot be written, 2 for bad arguments.\n"
              "Data follows XDG_DATA_HOME, or the data folder chosen in Settings; QCODE_DATA_DIR\n"
              "overrides both.\n");
}

QString TransferArgumentParser::importHelp()
{
    return tr("Usage: qcode import [options] <FILE>\n"
              "\n"
              "Adds a session from an export file (OpenCode's export JSON, as `qcode export` or\n"
              "`opencode export` writes it) to the database, and prints its id and title.\n"
              "FILE - reads the export from standard input. A file that is not a valid export, or a\n"
              "session that is already here, changes nothing.\n"
              "\n"
              "Options:\n"
              "  -h, --help                Show this help.\n"
              "\n"
              "Exit status: 0 when imported, 1 when the file cannot be read or imported, 2 for bad\n"
              "arguments.\n"
              "Data follows XDG_DATA_HOME, or the data folder chosen in Settings; QCODE_DATA_DIR\n"
              "overrides both.\n");
}

QString TransferArgumentParser::sessionsHelp()
{
    return tr("Usage: qcode sessions [options]\n"
              "\n"
              "Lists the stored sessions, most recently updated first: id, last update, title.\n"
              "Sessions that subagents ran inside another are left out.\n"
              "\n"
              "Options:\n"
              "  --dir DIR                 Only the sessions started in DIR or a folder inside it.\n"
              "  -h, --help                Show this help.\n"
              "\n"
              "Exit status: 0 when listed, 1 when the database cannot be read, 2 for bad arguments.\n");
}

} // namespace qcode
