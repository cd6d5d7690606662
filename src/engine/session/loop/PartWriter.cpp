#include "PartWriter.h"

#include <algorithm>
#include <utility>

#include "engine/session/SessionLogging.h"

using namespace Qt::StringLiterals;

namespace qcode {

namespace {

// The growing field of a streaming part; null for parts that do not stream.
QString *streamingText(Part &part)
{
    if (auto *text = part.as<TextPart>())
        return &text->text;
    if (auto *reasoning = part.as<ReasoningPart>())
        return &reasoning->text;
    return nullptr;
}

} // namespace

PartWriter::PartWriter(Store &store, SessionEventSink &sink, std::chrono::milliseconds flushInterval, QObject *parent)
    : QObject(parent)
    , m_store(store)
    , m_sink(sink)
    , m_interval(flushInterval)
{
    m_timer.setSingleShot(true);
    connect(&m_timer, &QTimer::timeout, this, &PartWriter::onTimer);
}

PartWriter::~PartWriter()
{
    if (!m_open.isEmpty())
        qCDebug(lcProcessor) << "part writer destroyed with" << m_open.size() << "open part(s); their last"
                             << m_interval.count() << "ms of text stay unsaved";
}

Result<void> PartWriter::save(const Part &part)
{
    return m_store.updatePart(part);
}

Result<void> PartWriter::write(const Part &part)
{
    if (auto saved = save(part); !saved)
        return saved;
    m_sink.publish(PartUpdated{part});
    return {};
}

Result<void> PartWriter::open(const Part &part)
{
    Part copy = part;
    if (!streamingText(copy))
        return Error{tr("Part %1 is a %2 part, which does not stream.").arg(part.id, part.type())};
    if (auto written = write(part); !written)
        return written;
    m_open.insert(part.id, OpenPart{part, false});
    return {};
}

Result<void> PartWriter::append(const QString &partID, const QString &delta)
{
    const auto it = m_open.find(partID);
    if (it == m_open.end())
        return Error{tr("Part %1 is not streaming.").arg(partID)};
    *streamingText(it->part) += delta;
    it->dirty = true;
    m_sink.publish(PartDelta{it->part.sessionID, it->part.messageID, partID, u"text"_s, delta});

    if (!m_unsavedSince.isValid()) {
        m_unsavedSince.start();
        m_timer.start(m_interval);
    } else if (m_unsavedSince.elapsed() >= m_interval.count()) {
        // A flood of deltas can keep the timer waiting behind them; the
        // bound holds anyway.
        if (auto flushed = flush(); !flushed)
            return flushed;
    }
    if (m_backgroundFailure)
        return *std::exchange(m_backgroundFailure, std::nullopt);
    return {};
}

std::optional<Part> PartWriter::openPart(const QString &partID) const
{
    const auto it = m_open.constFind(partID);
    if (it == m_open.cend())
        return std::nullopt;
    return it->part;
}

Result<void> PartWriter::close(const Part &part)
{
    m_open.remove(part.id);
    const bool anyDirty = std::any_of(m_open.cbegin(), m_open.cend(), [](const OpenPart &p) { return p.dirty; });
    if (!anyDirty) {
        m_timer.stop();
        m_unsavedSince.invalidate();
    }
    return write(part);
}

Result<void> PartWriter::flush()
{
    m_timer.stop();
    m_unsavedSince.invalidate();
    QStringList saved;
    for (auto it = m_open.begin(); it != m_open.end(); ++it) {
        if (!it->dirty)
            continue;
        if (auto written = save(it->part); !written)
            return written;
        it->dirty = false;
        saved.append(it.key());
    }
    // After the loop: a listener may close parts.
    for (const QString &partID : std::as_const(saved))
        Q_EMIT persisted(partID);
    return {};
}

void PartWriter::onTimer()
{
    if (auto flushed = flush(); !flushed) {
        qCWarning(lcProcessor) << "saving streamed text failed:" << flushed.errorMessage();
        m_backgroundFailure = flushed.error();
    }
}

} // namespace qcode
