#pragma once

#include <QList>
#include <QObject>
#include <QString>

#include <functional>

#include "engine/session/SessionEvents.h"

namespace qcode::test {

// A SessionEventSink that keeps every event, in order, and signals each one
// so a test can wait for the event it expects.
class RecordingEventSink : public QObject, public SessionEventSink
{
    Q_OBJECT

public:
    using QObject::QObject;

    void publish(const SessionEvent &event) override;
    // Called with each event as it is published, before it is recorded:
    // lets a test look at the database at that very moment.
    void setObserver(std::function<void(const SessionEvent &)> observer) { m_observer = std::move(observer); }

    const QList<SessionEvent> &events() const { return m_events; }
    QStringList types() const;

    template <typename T>
    QList<T> all() const
    {
        QList<T> found;
        for (const SessionEvent &event : m_events) {
            if (const auto *value = std::get_if<T>(&event))
                found.append(*value);
        }
        return found;
    }
    // The deltas published for one part, joined.
    QString deltaText(const QString &partID) const;
    // The last PartUpdated of a part of type T, or nothing.
    template <typename T>
    std::optional<Part> lastPartOf() const
    {
        for (auto it = m_events.crbegin(); it != m_events.crend(); ++it) {
            if (const auto *updated = std::get_if<PartUpdated>(&*it); updated && updated->part.as<T>())
                return updated->part;
        }
        return std::nullopt;
    }

Q_SIGNALS:
    void published(const QString &type);

private:
    QList<SessionEvent> m_events;
    std::function<void(const SessionEvent &)> m_observer;
};

} // namespace qcode::test
