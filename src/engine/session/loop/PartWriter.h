#pragma once

#include <QElapsedTimer>
#include <QHash>
#include <QObject>
#include <QString>
#include <QTimer>

#include <chrono>
#include <optional>

#include "engine/session/SessionEvents.h"
#include "model/Part.h"
#include "model/Result.h"
#include "model/Store.h"

namespace qcode {

// Saves parts and tells listeners, in that order (reference §1.5), and
// coalesces streaming text (DESIGN.md §3): every delta goes to the sink at
// once, but the database gets a streaming part's text only when it ends and
// at most `flushInterval` after a delta arrived while it streams. So a
// crash mid-answer loses at most that interval of text, the database never
// sees one write per token, and every row it holds is a whole, valid part.
//
// An open part lives here, in memory, from open() to close(); the
// processor reads it back with openPart(). A writer destroyed with parts
// still open writes nothing more (as a crash would); the processor closes
// its parts in its cleanup.
class PartWriter : public QObject
{
    Q_OBJECT

public:
    // The bound on text lost by a crash mid-stream.
    static constexpr std::chrono::milliseconds DefaultFlushInterval{250};

    // `store` and `sink` must outlive the writer.
    PartWriter(Store &store, SessionEventSink &sink, std::chrono::milliseconds flushInterval = DefaultFlushInterval,
               QObject *parent = nullptr);
    ~PartWriter() override;

    std::chrono::milliseconds flushInterval() const { return m_interval; }

    // Saves a part that does not stream (a tool part, a step boundary),
    // then publishes PartUpdated.
    Result<void> write(const Part &part);
    // Starts streaming into a text or reasoning part: saves it as it is
    // and keeps it in memory for append().
    Result<void> open(const Part &part);
    // Appends to an open part's text and publishes PartDelta at once. An
    // error is the one a background save met since the last call.
    Result<void> append(const QString &partID, const QString &delta);
    // The open part as it is now, deltas included.
    std::optional<Part> openPart(const QString &partID) const;
    QList<QString> openPartIDs() const { return m_open.keys(); }
    // Saves the part's final form, publishes PartUpdated and forgets it.
    Result<void> close(const Part &part);
    // Saves every open part whose text changed since its last save.
    Result<void> flush();

Q_SIGNALS:
    // An open part's streamed text reached the database.
    void persisted(const QString &partID);

private:
    struct OpenPart {
        Part part;
        bool dirty = false;
    };

    Result<void> save(const Part &part);
    void onTimer();

    Store &m_store;
    SessionEventSink &m_sink;
    std::chrono::milliseconds m_interval;
    QHash<QString, OpenPart> m_open;
    // Started by the first unsaved delta: the oldest unsaved text's age.
    QElapsedTimer m_unsavedSince;
    QTimer m_timer;
    std::optional<Error> m_backgroundFailure;
};

} // namespace qcode
