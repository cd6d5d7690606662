#pragma once

#include <QString>

class QNetworkAccessManager;

namespace qcode {

class Store;
class SessionEventSink;
class FileTimes;

// What the built-in tools share, owned by the engine and alive as long as
// the tool registry that holds this: the engine thread's store connection
// (todos), the event bus (todo updated), qcode's data folder (saved tool
// output), the read-time record that write/edit check, and the network
// manager (webfetch).
struct ToolServices {
    Store *store = nullptr;
    SessionEventSink *sink = nullptr;
    QString dataDirectory;
    FileTimes *fileTimes = nullptr;
    QNetworkAccessManager *network = nullptr;
};

} // namespace qcode
