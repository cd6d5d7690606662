// Store benchmark: prints figures, asserts nothing about time (the machines
// are shared and noisy). Targets from the foundation issue: inserting parts
// faster than 50k/s, and reading the newest 50 messages of a 10k-message /
// 50k-part session in under 20 ms.
#include <QCoreApplication>
#include <QElapsedTimer>
#include <QTemporaryDir>

#include <algorithm>
#include <cstdio>
#include <vector>

#include "TempDatabase.h"
#include "model/Identifier.h"
#include "model/Store.h"

using namespace Qt::StringLiterals;
using namespace qcode;
using namespace qcode::test;

namespace {

constexpr int InsertParts = 100000;
constexpr int InsertBatch = 1000;
constexpr int SessionMessages = 10000;
constexpr int PartsPerMessage = 5;
constexpr int ReadRepeats = 30;

bool check(const Result<void> &r)
{
    if (!r)
        std::fprintf(stderr, "bench_store: %s\n", qPrintable(r.errorMessage()));
    return r.ok();
}

Part samplePart(const QString &sessionID, const QString &messageID, int i)
{
    if (i % 5 == 2) {
        const ToolCompleted done{QJsonObject{{"filePath"_L1, u"/work/src/file%1.cpp"_s.arg(i)}}, QString(600, u'x'),
                                 u"file.cpp"_s, QJsonObject{{"lines"_L1, 40}}, 1, 2, std::nullopt, std::nullopt};
        const ToolPart tool{u"call_%1"_s.arg(i), u"read"_s, done, {}, {}};
        return Part{Identifier::ascending(Identifier::Prefix::Part), sessionID, messageID, tool, {}};
    }
    static const QString paragraph = u"Some streamed answer text, about one paragraph long. "_s.repeated(6);
    return makeTextPart(sessionID, messageID, paragraph);
}

} // namespace

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
#ifdef NDEBUG
    std::printf("bench_store: optimized build\n");
#else
    std::printf("bench_store: unoptimized (debug) build; the targets are for the release preset\n");
#endif
    TempDatabase db;
    auto store = db.open();
    if (!store)
        return 1;
    if (!check(store->upsertProject(makeProject())))
        return 1;

    // 1. Insert 100k parts in batches of 1000 (one transaction each).
    const Session insertSession = makeSession();
    const Message insertMessage = makeUserMessage(insertSession.id);
    if (!check(store->upsertSession(insertSession)) || !check(store->updateMessage(insertMessage)))
        return 1;
    QElapsedTimer timer;
    timer.start();
    for (int batch = 0; batch < InsertParts / InsertBatch; ++batch) {
        const bool ok = check(store->transaction([&]() -> Result<void> {
            for (int i = 0; i < InsertBatch; ++i) {
                if (auto r = store->updatePart(samplePart(insertSession.id, insertMessage.id(), i)); !r)
                    return r;
            }
            return {};
        }));
        if (!ok)
            return 1;
    }
    const double insertSeconds = timer.nsecsElapsed() / 1e9;
    std::printf("insert: %d parts in batches of %d: %.3f s, %.0f parts/s (target > 50000)\n", InsertParts,
                InsertBatch, insertSeconds, InsertParts / insertSeconds);

    // 2. A 10k-message / 50k-part session.
    const Session big = makeSession();
    if (!check(store->upsertSession(big)))
        return 1;
    const qint64 start = QDateTime::currentMSecsSinceEpoch() - SessionMessages;
    for (int batch = 0; batch < SessionMessages / 500; ++batch) {
        const bool ok = check(store->transaction([&]() -> Result<void> {
            for (int m = 0; m < 500; ++m) {
                const int n = batch * 500 + m;
                const Message message = n % 2 ? makeAssistantMessage(big.id, {}, start + n)
                                              : makeUserMessage(big.id, start + n);
                if (auto r = store->updateMessage(message); !r)
                    return r;
                for (int p = 0; p < PartsPerMessage; ++p) {
                    if (auto r = store->updatePart(samplePart(big.id, message.id(), p)); !r)
                        return r;
                }
            }
            return {};
        }));
        if (!ok)
            return 1;
    }

    // Read the newest 50 messages with their parts through a fresh
    // connection, as a window opening the session does.
    store.reset();
    std::vector<double> millis;
    qsizetype partsRead = 0;
    timer.restart();
    auto reader = db.open();
    const double openMs = timer.nsecsElapsed() / 1e6;
    for (int i = 0; i < ReadRepeats; ++i) {
        timer.restart();
        const auto page = reader->messagePage(big.id);
        millis.push_back(timer.nsecsElapsed() / 1e6);
        if (!page) {
            std::fprintf(stderr, "bench_store: %s\n", qPrintable(page.errorMessage()));
            return 1;
        }
        partsRead = 0;
        for (const MessageWithParts &m : page->messages)
            partsRead += m.parts.size();
    }
    const double first = millis.front();
    std::sort(millis.begin(), millis.end());
    std::printf("read: newest 50 messages (%lld parts) of a %d-message / %d-part session: first %.2f ms, "
                "median %.2f ms, worst %.2f ms (target < 20 ms); opening the store took %.2f ms\n",
                static_cast<long long>(partsRead), SessionMessages, SessionMessages * PartsPerMessage, first,
                millis[millis.size() / 2], millis.back(), openMs);
    return 0;
}
