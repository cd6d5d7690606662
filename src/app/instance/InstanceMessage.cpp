#include "InstanceMessage.h"

#include <QDir>
#include <QJsonDocument>
#include <QJsonObject>

using namespace Qt::StringLiterals;

namespace qcode::InstanceMessage {
namespace {

// Raised when the request changes shape, so an older running instance
// ignores a newer launch's request instead of misreading it.
constexpr int ProtocolVersion = 1;

const QString VersionKey = u"qcode"_s;
const QString OpenKey = u"open"_s;

} // namespace

QByteArray encodeRequest(const QString &folder)
{
    const QJsonObject request{{VersionKey, ProtocolVersion}, {OpenKey, folder}};
    return QJsonDocument(request).toJson(QJsonDocument::Compact) + '\n';
}

std::optional<QString> decodeRequest(const QByteArray &line)
{
    if (line.size() >= MaxRequestSize)
        return std::nullopt;
    QJsonParseError error;
    const QJsonDocument document = QJsonDocument::fromJson(line, &error);
    if (error.error != QJsonParseError::NoError || !document.isObject())
        return std::nullopt;
    const QJsonObject request = document.object();
    if (request.value(VersionKey).toInt() != ProtocolVersion || !request.value(OpenKey).isString())
        return std::nullopt;
    // The sender resolves a relative folder against its own working
    // directory; this process's is somewhere else, so a relative one is
    // meaningless here.
    const QString folder = request.value(OpenKey).toString();
    if (!folder.isEmpty() && !QDir::isAbsolutePath(folder))
        return std::nullopt;
    return folder;
}

QByteArray acknowledgement()
{
    return "ok\n"_ba;
}

} // namespace qcode::InstanceMessage
