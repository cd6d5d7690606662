// The chat view at scale (issue 6). Prints figures; asserts no time.
//
//   bench_chat open    a 10,000-message / 50,000-part session: time from
//                      choosing it to the first full screen painted, and
//                      resident memory then and after scrolling through
//                      all of it (targets: < 200 ms, < 300 MB).
//   bench_chat stream  2,000 deltas a second for 30 s into the view from
//                      another thread, as the engine sends them: the GUI
//                      thread's longest stall (an event-loop latency
//                      probe) and the CPU used (target: stall < 30 ms),
//                      with what the GUI thread did during that stall.
#include <QApplication>
#include <QDateTime>
#include <QElapsedTimer>
#include <QFile>
#include <QScrollBar>
#include <QTemporaryDir>
#include <QThread>
#include <QTimer>

#include <sys/resource.h>
#include <time.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <map>

#include "model/ChatModel.h"
#include "model/Identifier.h"
#include "model/Store.h"
#include "model/StreamingText.h"
#include "ui/chat/ChatView.h"

using namespace Qt::StringLiterals;
using namespace qcode;

namespace {

constexpr int Messages = 10000;

// CPU time of the calling thread: on a machine busy with other work the
// wall clock also counts the time the GUI thread waited for a core.
qint64 threadCpuNs()
{
    timespec now{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
    return qint64(now.tv_sec) * 1000000000 + now.tv_nsec;
}

// Times every event the GUI thread dispatches from its event loop, by
// receiver class and event type, between two marks: what a stall was made of.
class TimedApplication : public QApplication
{
public:
    using QApplication::QApplication;

    struct Cost {
        qint64 count = 0;
        qint64 ns = 0;
        qint64 cpuNs = 0;
    };
    using Breakdown = std::map<QString, Cost>;

    bool notify(QObject *receiver, QEvent *event) override
    {
        if (m_depth > 0 || !m_timing)
            return QApplication::notify(receiver, event);
        // Named first: the receiver (a DeferredDelete's) or the event may be gone after.
        const QString what = QString::fromLatin1(receiver->metaObject()->className()) + u" event "_s
                             + QString::number(int(event->type()));
        ++m_depth;
        QElapsedTimer clock;
        clock.start();
        const qint64 cpuBefore = threadCpuNs();
        const bool handled = QApplication::notify(receiver, event);
        Cost &cost = m_since[what];
        ++cost.count;
        cost.ns += clock.nsecsElapsed();
        cost.cpuNs += threadCpuNs() - cpuBefore;
        --m_depth;
        return handled;
    }

    void setTiming(bool timing) { m_timing = timing; }
    // What was dispatched since the last mark, and a fresh start.
    Breakdown mark() { return std::exchange(m_since, {}); }

private:
    int m_depth = 0;
    bool m_timing = false;
    Breakdown m_since;
};

void printBreakdown(const TimedApplication::Breakdown &breakdown, qint64 gapNs)
{
    std::vector<std::pair<QString, TimedApplication::Cost>> rows(breakdown.begin(), breakdown.end());
    qint64 inEvents = 0;
    for (const auto &row : rows)
        inEvents += row.second.ns;
    // The rest is the event loop's own work, or the thread waiting for a
    // core on a busy machine.
    std::printf("    %6.1f ms outside any event\n", double(gapNs - inEvents) / 1e6);
    std::sort(rows.begin(), rows.end(), [](const auto &a, const auto &b) { return a.second.ns > b.second.ns; });
    for (size_t i = 0; i < rows.size() && i < 6; ++i)
        std::printf("    %6.1f ms (%.1f ms of CPU) in %lld × %s\n", double(rows[i].second.ns) / 1e6,
                    double(rows[i].second.cpuNs) / 1e6, qlonglong(rows[i].second.count), qPrintable(rows[i].first));
}

qint64 residentKb(const char *field)
{
    QFile status(u"/proc/self/status"_s);
    if (!status.open(QIODevice::ReadOnly))
        return -1;
    for (const QByteArray &line : status.readAll().split('\n')) {
        if (line.startsWith(field))
            return line.mid(qsizetype(qstrlen(field))).trimmed().split(' ').value(0).toLongLong();
    }
    return -1;
}

double cpuSeconds()
{
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    return double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec)
           + double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6;
}

Part textPart(const QString &sessionID, const QString &messageID, const QString &text, bool streaming = false)
{
    TextPart body{text, std::nullopt, std::nullopt, PartTime{1, streaming ? std::nullopt : std::optional<qint64>(2)},
                  std::nullopt};
    return Part{Identifier::ascending(Identifier::Prefix::Part), sessionID, messageID, body, {}};
}

const QString AnswerText = uR"(Here is what I found in `src/parser.cpp`:

1. The tokenizer stops at the first `\0`.
2. The error path leaks the buffer.

```cpp
int parse(const char *text)
{
    while (*text) {
        ++text; // the loop the bug lives in
    }
    return 0;
}
```

I will fix both and run the tests.)"_s;

// 5,000 exchanges: a user message (text) and an assistant step (step
// start, reasoning, text, a bash call, a read call, step finish, patch,
// text): 10,000 messages, 50,000 parts.
bool fill(Store &store, Session &session)
{
    Project project;
    project.id = u"global"_s;
    project.worktree = u"/work/project"_s;
    if (Result<void> ok = store.upsertProject(project); !ok) {
        std::fprintf(stderr, "bench_chat: %s\n", qPrintable(ok.errorMessage()));
        return false;
    }
    session.id = Identifier::descending(Identifier::Prefix::Session);
    session.projectID = u"global"_s;
    session.directory = u"/work/project"_s;
    session.title = u"A long session"_s;
    session.slug = u"long-session"_s;
    session.version = u"0.1.0"_s;
    session.time.created = 1000;
    session.time.updated = 1000;
    if (Result<void> ok = store.upsertSession(session); !ok) {
        std::fprintf(stderr, "bench_chat: %s\n", qPrintable(ok.errorMessage()));
        return false;
    }
    const Result<void> written = store.transaction([&]() -> Result<void> {
        for (int i = 0; i < Messages / 2; ++i) {
            UserMessage user;
            user.id = Identifier::ascending(Identifier::Prefix::Message);
            user.sessionID = session.id;
            user.created = 1000 + i * 2;
            user.agent = u"build"_s;
            user.model = ModelRef{u"anthropic"_s, u"claude-sonnet-4-5"_s};
            if (auto ok = store.updateMessage(user); !ok)
                return ok;
            if (auto ok = store.updatePart(textPart(session.id, user.id, u"Please look at the parser, step %1."_s.arg(i)));
                !ok)
                return ok;
            if (auto ok = store.updatePart(textPart(session.id, user.id, u"Remember the tests."_s)); !ok)
                return ok;
            AssistantMessage answer;
            answer.id = Identifier::ascending(Identifier::Prefix::Message);
            answer.sessionID = session.id;
            answer.created = 1001 + i * 2;
            answer.completed = answer.created + 900;
            answer.parentID = user.id;
            answer.modelID = u"claude-sonnet-4-5"_s;
            answer.providerID = u"anthropic"_s;
            answer.agent = u"build"_s;
            answer.cost = 0.002;
            answer.tokens.input = 1200 + i;
            answer.tokens.output = 300;
            if (auto ok = store.updateMessage(answer); !ok)
                return ok;
            QList<PartBody> bodies;
            bodies.append(StepStartPart{});
            bodies.append(ReasoningPart{u"The parser loops until NUL; check the error path too."_s, std::nullopt, PartTime{1, 2}});
            bodies.append(TextPart{AnswerText, std::nullopt, std::nullopt, PartTime{1, 2}, std::nullopt});
            ToolPart bash;
            bash.callID = u"call_b%1"_s.arg(i);
            bash.tool = u"bash"_s;
            bash.state = ToolCompleted{QJsonObject{{u"command"_s, u"make test"_s}, {u"description"_s, u"Run the tests"_s}},
                                       u"ok 1 parser\nok 2 lexer\nok 3 printer\n"_s.repeated(20),
                                       u"make test"_s,
                                       QJsonObject{{u"exit"_s, 0}},
                                       1,
                                       2,
                                       std::nullopt,
                                       std::nullopt};
            bodies.append(bash);
            ToolPart read = bash;
            read.callID = u"call_r%1"_s.arg(i);
            read.tool = u"read"_s;
            read.state = ToolCompleted{QJsonObject{{u"filePath"_s, u"/work/project/src/parser.cpp"_s}},
                                       u"<file>\n00001| int parse(const char *text)\n</file>"_s, u"src/parser.cpp"_s, {},
                                       1, 2, std::nullopt, std::nullopt};
            bodies.append(read);
            bodies.append(StepFinishPart{u"stop"_s, std::nullopt, 0.002, answer.tokens});
            bodies.append(PatchPart{u"abc"_s, {u"/work/project/src/parser.cpp"_s}});
            bodies.append(TextPart{u"Done: both fixed, the tests pass."_s, std::nullopt, std::nullopt, PartTime{1, 2},
                                   std::nullopt});
            for (const PartBody &body : bodies) {
                const Part part{Identifier::ascending(Identifier::Prefix::Part), session.id, answer.id, body, {}};
                if (auto ok = store.updatePart(part); !ok)
                    return ok;
            }
        }
        return {};
    });
    if (!written)
        std::fprintf(stderr, "bench_chat: %s\n", qPrintable(written.errorMessage()));
    return bool(written);
}

int benchOpen(Store &store, const Session &session)
{
    const qint64 before = residentKb("VmRSS:");
    ChatModel model(&store);
    ChatView view(&model, ChatContext{});
    view.resize(1000, 800);
    view.show();
    QCoreApplication::processEvents();

    QElapsedTimer timer;
    timer.start();
    if (Result<void> shown = model.setSession(session.id); !shown) {
        std::fprintf(stderr, "bench_chat: %s\n", qPrintable(shown.errorMessage()));
        return 1;
    }
    view.layoutNow();
    view.viewport()->repaint();
    const double firstScreen = double(timer.nsecsElapsed()) / 1e6;
    const qint64 opened = residentKb("VmRSS:");
    std::printf("bench_chat open: %d messages; first full screen in %.1f ms (target < 200 ms); %d rows on screen\n",
                model.rowCount(), firstScreen, view.materializedCount());
    std::printf("  resident memory: %.1f MB before, %.1f MB after opening\n", double(before) / 1024, double(opened) / 1024);

    // Scroll through all of it, a screen at a time, bottom to top.
    timer.restart();
    int steps = 0, mostWidgets = 0, mostLoaded = 0;
    QScrollBar *bar = view.verticalScrollBar();
    while (bar->value() > 0) {
        bar->setValue(bar->value() - bar->pageStep());
        view.viewport()->repaint();
        QCoreApplication::processEvents();
        // What the app's event loop does between turns; processEvents()
        // outside exec() leaves deleteLater()'d widgets alive.
        QCoreApplication::sendPostedEvents(nullptr, QEvent::DeferredDelete);
        mostWidgets = std::max(mostWidgets, view.materializedCount());
        mostLoaded = std::max(mostLoaded, model.loadedCount());
        ++steps;
    }
    const double scrolled = double(timer.nsecsElapsed()) / 1e6;
    std::printf("  scrolled to the top in %d screens, %.2f ms a screen; at most %d message widgets and %d messages in "
                "memory at once\n",
                steps, scrolled / std::max(steps, 1), mostWidgets, mostLoaded);
    std::printf("  resident memory after scrolling through: %.1f MB (peak %.1f MB; target < 300 MB)\n",
                double(residentKb("VmRSS:")) / 1024, double(residentKb("VmHWM:")) / 1024);
    return 0;
}

// Deltas from another thread, queued to the GUI thread the way the
// engine's signals come: a text that grows in 4-character deltas, a new
// answer every 500 deltas.
class DeltaSource : public QObject
{
    Q_OBJECT

public:
    DeltaSource(ChatModel *model, StreamingText *streaming, QString sessionID)
        : m_model(model)
        , m_streaming(streaming)
        , m_sessionID(std::move(sessionID))
    {
    }

    void run(int perSecond, int seconds)
    {
        const qint64 total = qint64(perSecond) * seconds;
        QElapsedTimer clock;
        clock.start();
        for (qint64 sent = 0; sent < total; ++sent) {
            if (sent % 500 == 0)
                startAnswer();
            const QString delta = AnswerText.mid(int(sent % (AnswerText.size() / 4)) * 4, 4);
            const QString messageID = m_messageID, partID = m_partID;
            QMetaObject::invokeMethod(m_model, [model = m_model, streaming = m_streaming, session = m_sessionID,
                                                messageID, partID, delta] {
                streaming->partDelta(partID, u"text"_s, delta);
                model->applyPartDelta(session, messageID, partID, u"text"_s, delta);
            });
            // Paced to the wall clock: `sent` deltas are due at sent/perSecond s.
            const qint64 due = sent * 1000000 / perSecond;
            const qint64 now = clock.nsecsElapsed() / 1000;
            if (due > now)
                QThread::usleep(quint64(due - now));
        }
        sentAll = true;
    }

    std::atomic_bool sentAll = false;

private:
    void startAnswer()
    {
        UserMessage user;
        user.id = Identifier::ascending(Identifier::Prefix::Message);
        user.sessionID = m_sessionID;
        user.created = QDateTime::currentMSecsSinceEpoch();
        AssistantMessage answer;
        answer.id = Identifier::ascending(Identifier::Prefix::Message);
        answer.sessionID = m_sessionID;
        answer.created = user.created + 1;
        answer.parentID = user.id;
        answer.agent = u"build"_s;
        const Part question = textPart(m_sessionID, user.id, u"And the next part?"_s);
        const Part text = textPart(m_sessionID, answer.id, QString(), true);
        m_messageID = answer.id;
        m_partID = text.id;
        QMetaObject::invokeMethod(m_model, [model = m_model, streaming = m_streaming, user, answer, question, text] {
            model->applyMessage(user);
            model->applyPart(question);
            model->applyMessage(answer);
            streaming->partUpdated(text);
            model->applyPart(text);
        });
    }

    ChatModel *m_model;
    StreamingText *m_streaming;
    QString m_sessionID;
    QString m_messageID;
    QString m_partID;
};

int benchStream(Store &store, const Session &session)
{
    constexpr int PerSecond = 2000;
    constexpr int Seconds = 30;
    constexpr int ProbeMs = 5;
    StreamingText streaming;
    ChatModel model(&store, &streaming);
    ChatView view(&model, ChatContext{});
    view.resize(1000, 800);
    view.show();
    if (Result<void> shown = model.setSession(session.id); !shown)
        return 1;
    view.layoutNow();
    QCoreApplication::processEvents();

    // The probe: a timer that should fire every ProbeMs; how late it
    // comes is how long the GUI thread could not answer.
    QElapsedTimer sinceTick;
    qint64 longestGapNs = 0;
    qint64 ticks = 0;
    QTimer probe;
    probe.setTimerType(Qt::PreciseTimer);
    probe.setInterval(ProbeMs);
    auto *app = static_cast<TimedApplication *>(QCoreApplication::instance());
    TimedApplication::Breakdown worst;
    // The same, counting only the GUI thread's own CPU between two ticks:
    // the stall a person would see on a machine with a core to spare.
    qint64 cpuAtTick = 0;
    qint64 longestBusyNs = 0;
    qint64 busiestGapNs = 0;
    qint64 busyOver16 = 0, busyOver30 = 0;
    TimedApplication::Breakdown busiest;
    QObject::connect(&probe, &QTimer::timeout, &probe, [&] {
        TimedApplication::Breakdown since = app->mark();
        const qint64 cpuNow = threadCpuNs();
        const qint64 busyNs = cpuNow - cpuAtTick;
        cpuAtTick = cpuNow;
        if (ticks++ == 0) {
            sinceTick.restart();
            return;
        }
        const qint64 gapNs = sinceTick.nsecsElapsed();
        busyOver16 += busyNs > 16000000;
        busyOver30 += busyNs > 30000000;
        if (busyNs > longestBusyNs) {
            longestBusyNs = busyNs;
            busiestGapNs = gapNs;
            busiest = since;
        }
        if (gapNs > longestGapNs) {
            longestGapNs = gapNs;
            worst = std::move(since);
        }
        sinceTick.restart();
    });
    app->setTiming(true);

    DeltaSource source(&model, &streaming, session.id);
    QThread producer;
    source.moveToThread(&producer);
    producer.start();
    const double cpuBefore = cpuSeconds();
    QElapsedTimer wall;
    wall.start();
    probe.start();
    sinceTick.start();
    QMetaObject::invokeMethod(&source, [&source] { source.run(PerSecond, Seconds); });
    QTimer done;
    done.setInterval(50);
    QObject::connect(&done, &QTimer::timeout, &done, [&] {
        if (source.sentAll)
            QCoreApplication::quit();
    });
    done.start();
    QCoreApplication::exec();
    QCoreApplication::processEvents(); // the last queued deltas
    const double seconds = double(wall.nsecsElapsed()) / 1e9;
    const double cpu = cpuSeconds() - cpuBefore;
    producer.quit();
    producer.wait();

    const double stallMs = std::max(0.0, double(longestGapNs) / 1e6 - ProbeMs);
    std::printf("bench_chat stream: %d deltas/s for %d s into a %d-message session (%.1f s wall)\n", PerSecond, Seconds,
                Messages, seconds);
    std::printf("  longest GUI-thread stall: %.1f ms (target < 30 ms); %lld probe ticks of %d ms\n", stallMs,
                qlonglong(ticks), ProbeMs);
    std::printf("  the GUI thread between those two ticks (the stall and the probe's own %d ms), by receiver and event "
                "type:\n",
                ProbeMs);
    printBreakdown(worst, longestGapNs);
    std::printf("  longest stretch of GUI-thread CPU between two ticks: %.1f ms (target < 30 ms); %lld over 16 ms, "
                "%lld over 30 ms; the longest made of:\n",
                double(longestBusyNs) / 1e6, qlonglong(busyOver16), qlonglong(busyOver30));
    printBreakdown(busiest, busiestGapNs);
    std::printf("  CPU: %.2f s, %.0f%% of one core (the producer thread included)\n", cpu, 100.0 * cpu / seconds);
    std::printf("  resident memory: %.1f MB (peak %.1f MB)\n", double(residentKb("VmRSS:")) / 1024,
                double(residentKb("VmHWM:")) / 1024);
    return 0;
}

} // namespace

int main(int argc, char *argv[])
{
    qputenv("QT_QPA_PLATFORM", QByteArrayLiteral("offscreen"));
    TimedApplication app(argc, argv);
    const QString mode = app.arguments().value(1);
    if (mode != "open"_L1 && mode != "stream"_L1) {
        std::fprintf(stderr, "usage: bench_chat open|stream\n");
        return 2;
    }
#ifdef NDEBUG
    std::printf("bench_chat: optimized build\n");
#else
    std::printf("bench_chat: unoptimized (debug) build; the targets are for the release preset\n");
#endif
    QTemporaryDir dir;
    Result<std::unique_ptr<Store>> store = Store::open(dir.filePath(u"qcode.db"_s));
    if (!store) {
        std::fprintf(stderr, "bench_chat: %s\n", qPrintable(store.error().message));
        return 1;
    }
    Session session;
    QElapsedTimer filling;
    filling.start();
    if (!fill(**store, session))
        return 1;
    std::printf("bench_chat: %d messages written in %.1f s\n", Messages, double(filling.elapsed()) / 1000.0);
    return mode == "open"_L1 ? benchOpen(**store, session) : benchStream(**store, session);
}

#include "bench_chat.moc"
