#pragma once

#include <QString>
#include <QStringView>

#include "Result.h"

namespace qcode {

// Prefixed, time-ordered identifiers exactly as OpenCode 1.2 makes them
// (reference 1.1): "<prefix>_" + 12 hex digits + 14 base62 characters.
// The hex digits are the low 48 bits of (milliseconds * 4096 + counter),
// so string order is creation order within a process; descending ids (for
// sessions) store the bitwise complement so the newest sorts first.
namespace Identifier {

enum class Prefix { Session, Message, Permission, Question, User, Part, Pty, Tool, Workspace };

QString prefixText(Prefix prefix);

QString ascending(Prefix prefix);
QString descending(Prefix prefix);

// Accepts a caller's id verbatim when it carries the right prefix.
Result<QString> ascending(Prefix prefix, const QString &given);
Result<QString> descending(Prefix prefix, const QString &given);

bool hasPrefix(QStringView id, Prefix prefix);

// Milliseconds since the epoch encoded in an ascending id (low 48 bits of
// the value divided by 4096, as OpenCode decodes it). Descending ids are
// complemented first. Returns -1 for something that is not an id.
qint64 timestamp(QStringView id);

} // namespace Identifier
} // namespace qcode
