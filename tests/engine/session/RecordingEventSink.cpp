#include "RecordingEventSink.h"

namespace qcode::test {

void RecordingEventSink::publish(const SessionEvent &event)
{
    if (m_observer)
        m_observer(event);
    m_events.append(event);
    Q_EMIT published(sessionEventType(event));
}

QStringList RecordingEventSink::types() const
{
    QStringList list;
    for (const SessionEvent &event : m_events)
        list.append(sessionEventType(event));
    return list;
}

QString RecordingEventSink::deltaText(const QString &partID) const
{
    QString text;
    for (const PartDelta &delta : all<PartDelta>()) {
        if (delta.partID == partID)
            text += delta.delta;
    }
    return text;
}

} // namespace qcode::test
