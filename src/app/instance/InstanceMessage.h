#pragma once

#include <QByteArray>
#include <QString>

#include <optional>

namespace qcode::InstanceMessage {

// The largest request a running instance reads; a folder path is far
// shorter, so anything longer is a stranger on the socket.
constexpr qsizetype MaxRequestSize = 16 * 1024;

// One line of JSON asking the running instance to open `folder` (an
// absolute path), or only to come forward when `folder` is empty.
QByteArray encodeRequest(const QString &folder);

// The folder a request line (without its newline) asks for, empty to come
// forward; nothing when the line is not a request this version understands.
std::optional<QString> decodeRequest(const QByteArray &line);

// The running instance's answer once it has acted on a request.
QByteArray acknowledgement();

} // namespace qcode::InstanceMessage
