#pragma once

#include <QJsonObject>
#include <QString>

#include <optional>

namespace qcode {

// Careful readers of a tool call's JSON: a field that is missing or of
// another type is an empty optional, never a crash or a silent "0".
class ToolInput
{
public:
    static std::optional<QString> string(const QJsonObject &object, QLatin1StringView key);
    static std::optional<qint64> integer(const QJsonObject &object, QLatin1StringView key);
    static std::optional<QJsonObject> object(const QJsonObject &object, QLatin1StringView key);

    // A path under the project relative to it ("." for the project
    // itself); any other path as given.
    static QString displayPath(const QString &path, const QString &projectDirectory);
    // The first line of `text`, shortened to `maxLength` characters, with
    // an ellipsis when anything was left out.
    static QString firstLine(const QString &text, int maxLength);
    // How much of a command a card's title quotes ("Run `make -j2`").
    static constexpr int TitleCodeLength = 80;
    static QString compactJson(const QJsonObject &object, int maxLength);
    static QString indentedJson(const QJsonObject &object);
};

} // namespace qcode
