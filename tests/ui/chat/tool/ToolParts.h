#pragma once

#include <QJsonObject>
#include <QString>
#include <QTranslator>

#include "model/Part.h"

// Tool parts in each state, as the engine writes them, for the tool card
// suites.
namespace qcode::test {

inline const QString Project = QStringLiteral("/home/ada/project");

inline QString inProject(const QString &relative)
{
    return Project + QLatin1Char('/') + relative;
}

inline Part toolPart(const QString &tool, ToolState state)
{
    Part part;
    part.id = QStringLiteral("prt_0001");
    part.sessionID = QStringLiteral("ses_0001");
    part.messageID = QStringLiteral("msg_0001");
    part.body = ToolPart{QStringLiteral("call_1"), tool, std::move(state), std::nullopt, {}};
    return part;
}

inline ToolPart toolOf(const QString &tool, ToolState state)
{
    return *toolPart(tool, std::move(state)).as<ToolPart>();
}

inline ToolRunning running(const QJsonObject &input, qint64 start, std::optional<QJsonObject> metadata = std::nullopt)
{
    return ToolRunning{input, std::nullopt, std::move(metadata), start};
}

inline ToolCompleted completed(const QJsonObject &input, const QString &output, const QJsonObject &metadata,
                               qint64 start, qint64 end)
{
    return ToolCompleted{input, output, QString(), metadata, start, end, std::nullopt, std::nullopt};
}

inline ToolError failed(const QJsonObject &input, const QString &error, qint64 start, qint64 end,
                        std::optional<QJsonObject> metadata = std::nullopt)
{
    return ToolError{input, error, std::move(metadata), start, end};
}

// What the English numerus translation does with the sources' "file(s)"
// and "match(es)": the suites read the words a person sees.
class EnglishPlurals : public QTranslator
{
public:
    bool isEmpty() const override { return false; }
    QString translate(const char *context, const char *source, const char *disambiguation, int n) const override
    {
        Q_UNUSED(context);
        Q_UNUSED(disambiguation);
        QString text = QString::fromUtf8(source);
        if (n < 0 || !text.contains(QStringLiteral("%n")))
            return {};
        text.replace(QStringLiteral("(es)"), n == 1 ? QString() : QStringLiteral("es"));
        text.replace(QStringLiteral("(s)"), n == 1 ? QString() : QStringLiteral("s"));
        return text;
    }
};

} // namespace qcode::test
