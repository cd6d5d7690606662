#include "ConfigError.h"

#include <QRegularExpression>

using namespace Qt::StringLiterals;

namespace qcode {

QString ConfigError::toString() const
{
    QString where = file;
    if (line > 0) {
        where += u':' + QString::number(line);
        if (column > 0)
            where += u':' + QString::number(column);
    }
    return where.isEmpty() ? message : where + u": "_s + message;
}

ConfigError ConfigError::fromLocatedText(const QString &file, const QString &text)
{
    if (!text.startsWith(file + u':'))
        return {file, 0, 0, text};
    static const QRegularExpression located(u"\\A:(\\d+)(?::(\\d+))?: (.*)\\z"_s,
                                            QRegularExpression::DotMatchesEverythingOption);
    const QRegularExpressionMatch match = located.match(QStringView(text).mid(file.size()));
    if (!match.hasMatch())
        return {file, 0, 0, text.mid(file.size() + 1).trimmed()};
    return {file, match.captured(1).toInt(), match.captured(2).toInt(), match.captured(3)};
}

QStringList configErrorLines(const ConfigErrors &errors)
{
    QStringList lines;
    for (const ConfigError &error : errors)
        lines.append(error.toString());
    return lines;
}

} // namespace qcode
