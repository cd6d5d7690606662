#pragma once

#include <QByteArray>
#include <QMetaType>
#include <QString>

#include <optional>

namespace qcode {

// One dispatched Server-Sent Event. `data` stays raw bytes: every provider
// puts JSON there, and the JSON parser takes UTF-8 directly, so decoding it
// to a QString first would only cost a copy.
struct SseEvent {
    QString event;          // empty means the default type, "message"
    QByteArray data;        // the data lines joined with '\n'
    QString id;             // the last event id seen, as WHATWG keeps it
    std::optional<int> retry;

    bool operator==(const SseEvent &) const = default;
};

} // namespace qcode

Q_DECLARE_METATYPE(qcode::SseEvent)
