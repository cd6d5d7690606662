#include "ConfigSubstitution.h"

#include <QDir>
#include <QFileInfo>
#include <QRegularExpression>

#include "ConfigFile.h"
#include "JsoncParser.h"

using namespace Qt::StringLiterals;

namespace qcode {

namespace {

QString escapeForJsonString(const QString &value)
{
    QString out;
    out.reserve(value.size());
    for (const QChar c : value) {
        switch (c.unicode()) {
        case '"': out += "\\\""_L1; break;
        case '\\': out += "\\\\"_L1; break;
        case '\n': out += "\\n"_L1; break;
        case '\r': out += "\\r"_L1; break;
        case '\t': out += "\\t"_L1; break;
        default:
            if (c.unicode() < 0x20)
                out += u"\\u%1"_s.arg(int(c.unicode()), 4, 16, QLatin1Char('0'));
            else
                out += c;
        }
    }
    return out;
}

bool onCommentedLine(const QString &text, qsizetype position)
{
    const qsizetype lineStart = text.lastIndexOf(QLatin1Char('\n'), position - 1) + 1;
    return QStringView(text).mid(lineStart, position - lineStart).trimmed().startsWith(u"//");
}

} // namespace

Result<QString> ConfigSubstitution::apply(const QString &text, const QString &configFile,
                                          const QProcessEnvironment &environment, const QString &homeDirectory,
                                          ConfigError *error)
{
    static const QRegularExpression envPattern(u"\\{env:([^}]+)\\}"_s);
    static const QRegularExpression filePattern(u"\\{file:([^}]+)\\}"_s);

    QString out;
    out.reserve(text.size());
    qsizetype last = 0;
    for (const QRegularExpressionMatch &m : envPattern.globalMatch(text)) {
        out += QStringView(text).mid(last, m.capturedStart() - last);
        out += escapeForJsonString(environment.value(m.captured(1).trimmed()));
        last = m.capturedEnd();
    }
    out += QStringView(text).mid(last);

    const QDir configDir = QFileInfo(configFile).absoluteDir();
    QString result;
    result.reserve(out.size());
    last = 0;
    for (const QRegularExpressionMatch &m : filePattern.globalMatch(out)) {
        result += QStringView(out).mid(last, m.capturedStart() - last);
        last = m.capturedEnd();
        if (onCommentedLine(out, m.capturedStart())) {
            result += m.captured(0);
            continue;
        }
        QString path = m.captured(1).trimmed();
        if (path == "~"_L1 || path.startsWith("~/"_L1))
            path = QDir(homeDirectory).filePath(path.mid(2));
        const QString resolved = QDir::cleanPath(configDir.absoluteFilePath(path));
        const auto failed = [&](const QString &what) -> Result<QString> {
            const auto [line, column] = JsoncParser::lineAndColumn(out.toUtf8(), out.left(m.capturedStart()).toUtf8().size());
            const ConfigError located{QDir::toNativeSeparators(configFile), line, column,
                                      tr("bad file reference \"%1\": %2 %3")
                                          .arg(m.captured(0), QDir::toNativeSeparators(resolved), what)};
            if (error)
                *error = located;
            return Error{located.toString()};
        };
        if (!QFileInfo::exists(resolved))
            return failed(tr("does not exist"));
        const Result<QByteArray> bytes = ConfigFile::read(resolved);
        if (!bytes)
            return failed(bytes.errorMessage());
        if (JsoncParser::invalidUtf8Offset(*bytes) >= 0)
            return failed(tr("is not UTF-8 text"));
        result += escapeForJsonString(QString::fromUtf8(*bytes).trimmed());
    }
    result += QStringView(out).mid(last);
    return result;
}

} // namespace qcode
