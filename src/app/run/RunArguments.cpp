#include "RunArguments.h"

#include <QCommandLineParser>

#include "OptionValue.h"
#include "engine/config/ProviderRegistry.h"

using namespace Qt::StringLiterals;

namespace qcode {

namespace {

struct RunOptions {
    QCommandLineOption dir{u"dir"_s, {}, u"DIR"_s};
    QCommandLineOption model{{u"m"_s, u"model"_s}, {}, u"provider/model"_s};
    QCommandLineOption agent{u"agent"_s, {}, u"NAME"_s};
    QCommandLineOption continueLast{{u"c"_s, u"continue"_s}};
    QCommandLineOption session{{u"s"_s, u"session"_s}, {}, u"ID"_s};
    QCommandLineOption file{{u"f"_s, u"file"_s}, {}, u"PATH"_s};
    QCommandLineOption format{u"format"_s, {}, u"FORMAT"_s};
    QCommandLineOption autoApprove{u"auto-approve"_s};
    QCommandLineOption help{{u"h"_s, u"help"_s}};
};

} // namespace

Result<RunArguments> RunArgumentParser::parse(const QStringList &arguments)
{
    const RunOptions options;
    QCommandLineParser parser;
    parser.setSingleDashWordOptionMode(QCommandLineParser::ParseAsCompactedShortOptions);
    parser.addOptions({options.dir, options.model, options.agent, options.continueLast, options.session,
                       options.file, options.format, options.autoApprove, options.help});
    if (!parser.parse(QStringList{u"qcode-run"_s} + arguments))
        return Error{parser.errorText()};

    RunArguments result;
    result.help = parser.isSet(options.help);
    result.messageWords = parser.positionalArguments();
    result.continueLast = parser.isSet(options.continueLast);
    result.autoApprove = parser.isSet(options.autoApprove);

    for (const QString &file : parser.values(options.file)) {
        if (file.isEmpty())
            return Error{tr("--file needs a path.")};
        result.files.append(file);
    }

    auto dir = OptionValue::single(parser, options.dir);
    if (!dir)
        return dir.error();
    result.directory = dir->value_or(QString());

    auto agent = OptionValue::single(parser, options.agent);
    if (!agent)
        return agent.error();
    result.agent = *agent;

    auto session = OptionValue::single(parser, options.session);
    if (!session)
        return session.error();
    result.sessionID = *session;

    auto model = OptionValue::single(parser, options.model);
    if (!model)
        return model.error();
    if (model->has_value()) {
        result.model = ProviderRegistry::parseModel(**model);
        if (!result.model)
            return Error{tr("--model \"%1\" is not of the form provider/model.").arg(**model)};
    }

    auto format = OptionValue::single(parser, options.format);
    if (!format)
        return format.error();
    if (format->has_value()) {
        if (**format == "json"_L1)
            result.format = RunFormat::Json;
        else if (**format != "default"_L1)
            return Error{tr("--format \"%1\" is not one of: default, json.").arg(**format)};
    }

    if (result.continueLast && result.sessionID)
        return Error{tr("--continue and --session cannot be used together: --session already names the "
                        "session to continue.")};
    return result;
}

QString RunArgumentParser::helpText()
{
    return tr("Usage: qcode run [options] [message…]\n"
              "\n"
              "Sends one message to the agent without opening a window, prints the answer and exits.\n"
              "The message is the words given, joined with spaces; without words it is read from\n"
              "standard input when that is not a terminal.\n"
              "\n"
              "Options:\n"
              "  --dir DIR                 The project folder (default: the current folder).\n"
              "  -m, --model provider/model\n"
              "                            The model to use, e.g. anthropic/claude-sonnet-4-5.\n"
              "  --agent NAME              The primary agent to use (default: the configured default).\n"
              "  -c, --continue            Continue the newest session of the project.\n"
              "  -s, --session ID          Continue the session with this id.\n"
              "  -f, --file PATH           Attach a file or folder; repeat for more. Relative paths\n"
              "                            are taken from the project folder.\n"
              "  --format default|json     default: the answer on standard output as it streams,\n"
              "                            tool activity and errors on standard error.\n"
              "                            json: every event as one JSON object per line.\n"
              "  --auto-approve            Allow every action the permission rules would ask about.\n"
              "                            Without it such actions are refused.\n"
              "  -h, --help                Show this help.\n"
              "\n"
              "Exit status: 0 when the answer finished, also when a permission or question was\n"
              "refused on the way (the refusal is on standard error and in the JSON events);\n"
              "1 when the run itself failed (it could not start, or the provider or the agent\n"
              "loop failed); 2 for bad arguments; 130 when interrupted.\n"
              "Data and config follow XDG_DATA_HOME and XDG_CONFIG_HOME (QCODE_DATA_DIR overrides\n"
              "the data folder).\n");
}

} // namespace qcode
