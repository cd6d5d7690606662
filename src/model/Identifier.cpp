#include "Identifier.h"

#include <QDateTime>
#include <QRandomGenerator>

#include <mutex>

using namespace Qt::StringLiterals;

namespace qcode::Identifier {
namespace {

constexpr int HexLength = 12;
constexpr int RandomLength = 14;
constexpr quint64 Low48Bits = (quint64(1) << 48) - 1;
constexpr qint64 CounterRange = 4096;
// The 48 bits hold (ms * 4096 + counter), so only 36 bits of milliseconds
// survive: ids wrap every 2^36 ms, about 2.2 years.
constexpr qint64 TimestampPeriod = qint64(1) << 36;

struct Clock {
    std::mutex mutex;
    qint64 lastMillisecond = 0;
    qint64 counter = 0;
    quint64 lastValue = 0;
};

Clock &clock()
{
    static Clock instance;
    return instance;
}

// OpenCode resets a per-millisecond counter and lets it bleed into the next
// millisecond after 4095 ids; a clock step backwards would then repeat
// values. qcode keeps OpenCode's bits whenever they are increasing and
// otherwise takes the next value, so ids are strictly monotonic in-process.
quint64 nextValue()
{
    Clock &c = clock();
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    std::lock_guard lock(c.mutex);
    if (now != c.lastMillisecond) {
        c.lastMillisecond = now;
        c.counter = 0;
    }
    ++c.counter;
    quint64 value = quint64(now) * CounterRange + quint64(c.counter);
    if (value <= c.lastValue)
        value = c.lastValue + 1;
    c.lastValue = value;
    return value;
}

QString randomBase62()
{
    static constexpr char Alphabet[] = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
    QString out;
    out.reserve(RandomLength);
    auto *rng = QRandomGenerator::system();
    for (int i = 0; i < RandomLength; ++i)
        out.append(QLatin1Char(Alphabet[rng->bounded(256) % 62]));
    return out;
}

QString make(Prefix prefix, bool descendingOrder)
{
    quint64 value = nextValue() & Low48Bits;
    if (descendingOrder)
        value = ~value & Low48Bits;
    return prefixText(prefix) + u'_' + QString::number(value, 16).rightJustified(HexLength, u'0')
        + randomBase62();
}

Result<QString> accept(Prefix prefix, const QString &given)
{
    if (!hasPrefix(given, prefix))
        return Error{u"ID %1 does not start with %2"_s.arg(given, prefixText(prefix))};
    return given;
}

} // namespace

QString prefixText(Prefix prefix)
{
    switch (prefix) {
    case Prefix::Session: return u"ses"_s;
    case Prefix::Message: return u"msg"_s;
    case Prefix::Permission: return u"per"_s;
    case Prefix::Question: return u"que"_s;
    case Prefix::User: return u"usr"_s;
    case Prefix::Part: return u"prt"_s;
    case Prefix::Pty: return u"pty"_s;
    case Prefix::Tool: return u"tool"_s;
    case Prefix::Workspace: return u"wrk"_s;
    }
    return {};
}

QString ascending(Prefix prefix) { return make(prefix, false); }
QString descending(Prefix prefix) { return make(prefix, true); }

Result<QString> ascending(Prefix prefix, const QString &given) { return accept(prefix, given); }
Result<QString> descending(Prefix prefix, const QString &given) { return accept(prefix, given); }

bool hasPrefix(QStringView id, Prefix prefix)
{
    const QString head = prefixText(prefix) + u'_';
    return id.startsWith(QStringView(head));
}

qint64 timestamp(QStringView id)
{
    const qsizetype underscore = id.indexOf(u'_');
    if (underscore < 0 || id.size() < underscore + 1 + HexLength)
        return -1;
    bool ok = false;
    quint64 value = id.mid(underscore + 1, HexLength).toULongLong(&ok, 16);
    if (!ok)
        return -1;
    if (hasPrefix(id, Prefix::Session))
        value = ~value & Low48Bits;
    // The stored milliseconds are the low 36 bits; put back the upper bits
    // from today's clock, choosing the most recent period that is not
    // (beyond a day of clock skew) in the future.
    const qint64 low = qint64(value / CounterRange);
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    qint64 candidate = now - (now % TimestampPeriod) + low;
    if (candidate > now + 24 * 3600 * 1000)
        candidate -= TimestampPeriod;
    return candidate;
}

} // namespace qcode::Identifier
