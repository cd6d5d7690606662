#include "ToolInput.h"

#include <QDir>
#include <QJsonDocument>

using namespace Qt::StringLiterals;

namespace qcode {

namespace {

const QString Ellipsis = u"\u2026"_s;

} // namespace

std::optional<QString> ToolInput::string(const QJsonObject &object, QLatin1StringView key)
{
    const QJsonValue value = object.value(key);
    return value.isString() ? std::optional(value.toString()) : std::nullopt;
}

std::optional<qint64> ToolInput::integer(const QJsonObject &object, QLatin1StringView key)
{
    const QJsonValue value = object.value(key);
    return value.isDouble() ? std::optional(qint64(value.toDouble())) : std::nullopt;
}

std::optional<QJsonObject> ToolInput::object(const QJsonObject &object, QLatin1StringView key)
{
    const QJsonValue value = object.value(key);
    return value.isObject() ? std::optional(value.toObject()) : std::nullopt;
}

QString ToolInput::displayPath(const QString &path, const QString &projectDirectory)
{
    if (path.isEmpty() || projectDirectory.isEmpty() || !QDir::isAbsolutePath(path))
        return QDir::fromNativeSeparators(path);
    const QString clean = QDir::cleanPath(QDir::fromNativeSeparators(path));
    const QString project = QDir::cleanPath(QDir::fromNativeSeparators(projectDirectory));
    if (clean == project)
        return u"."_s;
    const QString prefix = project.endsWith(u'/') ? project : QString(project + u'/');
    if (clean.startsWith(prefix))
        return clean.mid(prefix.size());
    return clean;
}

QString ToolInput::firstLine(const QString &text, int maxLength)
{
    const QString trimmed = text.trimmed();
    const qsizetype newline = trimmed.indexOf(u'\n');
    QString line = newline < 0 ? trimmed : trimmed.left(newline).trimmed();
    const bool cut = newline >= 0 || line.size() > maxLength;
    if (line.size() > maxLength)
        line.truncate(maxLength);
    return cut ? QString(line + Ellipsis) : line;
}

QString ToolInput::compactJson(const QJsonObject &object, int maxLength)
{
    QString text = QString::fromUtf8(QJsonDocument(object).toJson(QJsonDocument::Compact));
    if (text.size() > maxLength) {
        text.truncate(maxLength);
        text += Ellipsis;
    }
    return text;
}

QString ToolInput::indentedJson(const QJsonObject &object)
{
    return QString::fromUtf8(QJsonDocument(object).toJson(QJsonDocument::Indented)).trimmed();
}

} // namespace qcode
