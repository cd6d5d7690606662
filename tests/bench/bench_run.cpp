// `qcode run` benchmark (issue 4): the real qcode binary against fake
// providers in this process that answer at once, in four workloads:
//   short     one short answer
//   tools     a 20-step tool session (read, glob, grep, write, edit, bash echo)
//   deltas    one answer of 20,000 five-character deltas
//   parallel  three `sleep 2` bash calls in one assistant message (issue 17)
// For each: wall time, CPU time (user + system) and peak RSS of the qcode
// process, beside OpenCode 1.18's figures on this kind of machine and
// qcode's targets (at most 1/20 of its CPU and 1/10 of its memory). The
// parallel workload's figure is its wall time: about 2 s when the calls run
// together, over 6 s when they run one after another. Prints figures;
// asserts nothing about time.
//
// Method: the bench forks and execs qcode itself (no QProcess) with stdout
// and stderr in temporary files, and polls wait4(pid, WNOHANG) every
// millisecond while its event loop serves the fake providers. wait4 returns
// the rusage of exactly that child: ru_utime + ru_stime is its CPU time and
// ru_maxrss its peak resident set (kB on Linux). getrusage(RUSAGE_CHILDREN)
// deltas would do for CPU, but its ru_maxrss is the largest of all children
// so far, not the last one's, so it cannot tell runs apart.
//
// Every run gets a fresh sandbox (empty XDG data and config folders, a new
// database), as a first `opencode run` in a new project would. Each
// workload runs 3 times (QCODE_BENCH_REPEATS); the median of each figure is printed.
//
// QCODE_BENCH_REPEATS=n, QCODE_BENCH_ONLY=short|tools|deltas and
// QCODE_BENCH_VERBOSE=1 (the last run's output) help when profiling.
// QCODE_BENCH_OPENCODE=/path/to/opencode additionally measures
// `opencode run --format json` on the same workloads, sandbox and config.

#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QJsonObject>
#include <QTemporaryFile>
#include <QTimer>

#include <algorithm>
#include <cstdio>
#include <functional>
#include <vector>

#ifdef Q_OS_LINUX
#include <fcntl.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#endif

#include "FakeProviderServer.h"
#include "RunSandbox.h"

using namespace Qt::StringLiterals;
using namespace qcode::test;

namespace {

constexpr int DefaultRepeats = 3;
constexpr int ToolSteps = 20;
constexpr int DeltaCount = 20000;
constexpr int ParallelCalls = 3;
constexpr int ParallelCallSeconds = 2;
constexpr qint64 RunTimeoutMs = 300000;

// QCODE_BENCH_REPEATS overrides how often each workload runs.
int repeats()
{
    bool ok = false;
    const int wanted = qEnvironmentVariableIntValue("QCODE_BENCH_REPEATS", &ok);
    return ok && wanted > 0 ? wanted : DefaultRepeats;
}

struct Measurement {
    bool ok = false;
    int exitCode = -1;
    double wallSeconds = 0;
    double cpuSeconds = 0;
    double peakRssMB = 0;
    QByteArray out;
    QByteArray err;
};

// OpenCode 1.18 `opencode run` on this kind of machine (issue 4).
struct Reference {
    double cpuSeconds;
    double rssMB;
};

struct Workload {
    QString name;
    QString description;
    Reference opencode;
    // Lays out the project and scripts the provider for one run; returns
    // the message to send.
    std::function<QString(const RunSandbox &, FakeProviderServer &)> prepare;
    QStringList extraArguments;
};

#ifdef Q_OS_LINUX
std::vector<char *> pointers(std::vector<QByteArray> &storage)
{
    std::vector<char *> out;
    for (QByteArray &item : storage)
        out.push_back(item.data());
    out.push_back(nullptr);
    return out;
}

Measurement measure(const QString &program, const QStringList &arguments, const QProcessEnvironment &environment,
                    const QString &workingDirectory)
{
    Measurement m;
    QTemporaryFile outFile;
    QTemporaryFile errFile;
    if (!outFile.open() || !errFile.open())
        return m;
    // Everything the child needs is made before fork(): after it, only
    // async-signal-safe calls until exec.
    std::vector<QByteArray> argStorage{QFile::encodeName(program)};
    for (const QString &argument : arguments)
        argStorage.push_back(argument.toLocal8Bit());
    // PWD too: OpenCode takes its project folder from it, not from getcwd().
    QProcessEnvironment childEnvironment = environment;
    childEnvironment.insert(u"PWD"_s, workingDirectory);
    std::vector<QByteArray> envStorage;
    for (const QString &entry : childEnvironment.toStringList())
        envStorage.push_back(entry.toLocal8Bit());
    std::vector<char *> argv = pointers(argStorage);
    std::vector<char *> envp = pointers(envStorage);
    const QByteArray directory = QFile::encodeName(workingDirectory);
    const int outFd = outFile.handle();
    const int errFd = errFile.handle();

    QElapsedTimer wall;
    wall.start();
    const pid_t pid = fork();
    if (pid < 0)
        return m;
    if (pid == 0) {
        const int devNull = open("/dev/null", O_RDONLY);
        if (devNull < 0 || dup2(devNull, 0) < 0 || dup2(outFd, 1) < 0 || dup2(errFd, 2) < 0 ||
            chdir(directory.constData()) != 0)
            _exit(127);
        execve(argv[0], argv.data(), envp.data());
        _exit(127);
    }

    struct rusage usage = {};
    int status = 0;
    bool reaped = false;
    QEventLoop loop;
    QTimer poll;
    poll.setInterval(1);
    QObject::connect(&poll, &QTimer::timeout, &loop, [&] {
        if (wait4(pid, &status, WNOHANG, &usage) == pid) {
            reaped = true;
            loop.quit();
        } else if (wall.elapsed() > RunTimeoutMs) {
            kill(pid, SIGKILL);
        }
    });
    poll.start();
    loop.exec();
    m.wallSeconds = double(wall.nsecsElapsed()) / 1e9;
    if (!reaped)
        return m;
    m.ok = WIFEXITED(status);
    m.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    const auto seconds = [](const timeval &t) { return double(t.tv_sec) + double(t.tv_usec) / 1e6; };
    m.cpuSeconds = seconds(usage.ru_utime) + seconds(usage.ru_stime);
    m.peakRssMB = double(usage.ru_maxrss) / 1024.0;
    outFile.seek(0);
    errFile.seek(0);
    m.out = outFile.readAll();
    m.err = errFile.readAll();
    return m;
}
#endif

QString shortAnswer(const RunSandbox &, FakeProviderServer &server)
{
    server.enqueue(FakeTurn().text({u"Hello"_s, u" there"_s, u"."_s}).usage(1200, 4));
    return u"Say hello."_s;
}

// Twenty tool calls, one per step, cycling through the tools a coding
// session uses most; every call differs, so no doom-loop question.
QString toolSession(const RunSandbox &sandbox, FakeProviderServer &server)
{
    const QDir project(sandbox.projectDirectory());
    for (int i = 0; i < ToolSteps; ++i)
        sandbox.writeProjectFile(u"src/file%1.txt"_s.arg(i), u"line one\nneedle %1\nline three\n"_s.arg(i).toUtf8());
    for (int i = 0; i < ToolSteps; ++i) {
        QString tool;
        QJsonObject input;
        switch (i % 6) {
        case 0:
            tool = u"read"_s;
            input = {{u"filePath"_s, project.filePath(u"src/file%1.txt"_s.arg(i))}};
            break;
        case 1:
            tool = u"glob"_s;
            input = {{u"pattern"_s, u"src/file%1*.txt"_s.arg(i % 10)}};
            break;
        case 2:
            tool = u"grep"_s;
            input = {{u"pattern"_s, u"needle %1"_s.arg(i)}, {u"include"_s, u"*.txt"_s}};
            break;
        case 3:
            tool = u"write"_s;
            input = {{u"filePath"_s, project.filePath(u"out/new%1.txt"_s.arg(i))},
                     {u"content"_s, u"draft %1\n"_s.arg(i)}};
            break;
        case 4:
            tool = u"edit"_s;
            input = {{u"filePath"_s, project.filePath(u"out/new%1.txt"_s.arg(i - 1))},
                     {u"oldString"_s, u"draft"_s},
                     {u"newString"_s, u"final"_s}};
            break;
        default:
            tool = u"bash"_s;
            input = {{u"command"_s, u"echo step %1"_s.arg(i)}, {u"description"_s, u"Print step %1"_s.arg(i)}};
            break;
        }
        server.enqueue(FakeTurn().toolCall(tool, input).usage(2000 + 300 * i, 40));
    }
    server.enqueue(FakeTurn().text({u"All twenty steps are done."_s}).usage(9000, 12));
    return u"Work through the project files."_s;
}

QString manyDeltas(const RunSandbox &, FakeProviderServer &server)
{
    QStringList deltas;
    deltas.reserve(DeltaCount);
    for (int i = 0; i < DeltaCount; ++i)
        deltas.append(u"w%1 "_s.arg(i % 1000, 3, 10, QLatin1Char('0'))); // five characters
    server.enqueue(FakeTurn().text(deltas).usage(1200, DeltaCount));
    return u"Write a long answer."_s;
}

// One assistant message calling bash three times, each call sleeping two
// seconds; then the answer.
QString parallelTools(const RunSandbox &, FakeProviderServer &server)
{
    FakeTurn calls;
    for (int i = 1; i <= ParallelCalls; ++i) {
        calls.toolCall(u"bash"_s,
                       QJsonObject{{u"command"_s, u"sleep %1"_s.arg(ParallelCallSeconds)},
                                   {u"description"_s, u"Wait %1 seconds (%2)"_s.arg(ParallelCallSeconds).arg(i)}},
                       u"call_%1"_s.arg(i));
    }
    server.enqueue(calls.usage(1500, 60));
    server.enqueue(FakeTurn().text({u"All three waits are over."_s}).usage(1800, 8));
    return u"Wait three times."_s;
}

double median(std::vector<double> values)
{
    std::sort(values.begin(), values.end());
    return values.empty() ? 0 : values[values.size() / 2];
}

struct Figures {
    double wall = 0;
    double cpu = 0;
    double rss = 0;
    int failures = 0;
    QString lastProblem;
    QByteArray lastOut;
    QByteArray lastErr;
};

Figures runWorkload(const Workload &workload, const QString &program, const QStringList &baseArguments)
{
    std::vector<double> walls, cpus, rsses;
    Figures figures;
    for (int r = 0; r < repeats(); ++r) {
        RunSandbox sandbox;
        FakeProviderServer server;
        FakeProviderServer titles;
        titles.enqueue(FakeTurn().text({u"Benchmark session"_s}).usage(100, 3));
        if (!sandbox.isValid() || !sandbox.writeConfig(server.baseUrl(), titles.baseUrl())) {
            figures.lastProblem = u"the sandbox could not be made"_s;
            ++figures.failures;
            continue;
        }
        const QString message = workload.prepare(sandbox, server);
        QStringList arguments = baseArguments + workload.extraArguments;
        arguments.append(message);
#ifdef Q_OS_LINUX
        const Measurement m = measure(program, arguments, sandbox.environment(), sandbox.projectDirectory());
#else
        const Measurement m;
#endif
        figures.lastOut = m.out;
        figures.lastErr = m.err;
        if (!m.ok || m.exitCode != 0) {
            ++figures.failures;
            figures.lastProblem = u"exit status %1"_s.arg(m.exitCode);
            continue;
        }
        if (server.pendingTurns() > 0)
            figures.lastProblem = u"%1 scripted answers were not asked for"_s.arg(server.pendingTurns());
        walls.push_back(m.wallSeconds);
        cpus.push_back(m.cpuSeconds);
        rsses.push_back(m.peakRssMB);
    }
    figures.wall = median(walls);
    figures.cpu = median(cpus);
    figures.rss = median(rsses);
    return figures;
}

// Which tools of the session did not run, from the tool lines on stderr: a
// failed call, or a call of a tool this build lacks (answered by the
// `invalid` tool, whose title says so).
QStringList failedToolLines(const QByteArray &err)
{
    QStringList failed;
    for (const QString &line : QString::fromUtf8(err).split(u'\n')) {
        if (line.startsWith(u"✗"_s) || (line.startsWith(u"| "_s) && line.contains(u"Invalid Tool"_s)))
            failed.append(line);
    }
    return failed;
}

void printFigures(const char *who, const Workload &workload, const Figures &f, bool withTargets)
{
    if (f.failures == repeats()) {
        std::printf("%-7s %-8s FAILED (%s)\n%s\n", who, qPrintable(workload.name), qPrintable(f.lastProblem),
                    f.lastErr.left(2000).constData());
        return;
    }
    std::printf("%-7s %-8s wall %6.3f s   CPU %6.3f s   peak RSS %7.1f MB", who, qPrintable(workload.name), f.wall,
                f.cpu, f.rss);
    // Workloads without an OpenCode figure have no target to meet.
    if (withTargets && workload.opencode.cpuSeconds > 0) {
        const double cpuTarget = workload.opencode.cpuSeconds / 20;
        const double rssTarget = workload.opencode.rssMB / 10;
        std::printf("   | OpenCode 1.18: %.1f s, %.0f MB | target <= %.3f s, <= %.1f MB | CPU %s, memory %s",
                    workload.opencode.cpuSeconds, workload.opencode.rssMB, cpuTarget, rssTarget,
                    f.cpu <= cpuTarget ? "met" : "NOT met", f.rss <= rssTarget ? "met" : "NOT met");
    }
    std::printf("\n");
    if (f.failures > 0)
        std::printf("        (%d of %d runs failed: %s)\n", f.failures, repeats(), qPrintable(f.lastProblem));
    else if (!f.lastProblem.isEmpty())
        std::printf("        (note: %s)\n", qPrintable(f.lastProblem));
    // QCODE_BENCH_VERBOSE=1: what the last run printed, to see why.
    if (qEnvironmentVariableIntValue("QCODE_BENCH_VERBOSE") > 0)
        std::printf("        last stdout (end):\n%s\n        last stderr (end):\n%s\n", f.lastOut.right(3000).constData(),
                    f.lastErr.right(3000).constData());
}

} // namespace

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
#ifndef Q_OS_LINUX
    std::printf("bench_run: measures with fork/wait4 and runs on Linux only\n");
    return 0;
#else
#ifdef NDEBUG
    std::printf("bench_run: qcode run, optimized build; median of %d runs each\n", repeats());
#else
    std::printf("bench_run: qcode run, unoptimized (debug) build; the targets are for the release preset; "
                "median of %d runs each\n", repeats());
#endif
    QList<Workload> workloads{
        {u"short"_s, u"one short answer"_s, {4.6, 600}, shortAnswer, {}},
        {u"tools"_s, u"a 20-step tool session (read, glob, grep, write, edit, bash echo)"_s, {10.3, 708}, toolSession,
         {u"--auto-approve"_s}},
        {u"deltas"_s, u"one answer of 20,000 five-character deltas"_s, {8.0, 845}, manyDeltas, {}},
        {u"parallel"_s, u"three 2-second bash calls (sleep 2) in one assistant message"_s, {0, 0}, parallelTools,
         {u"--auto-approve"_s}},
    };
    // QCODE_BENCH_ONLY=name runs one workload (for a profiler).
    const QString only = qEnvironmentVariable("QCODE_BENCH_ONLY");
    if (!only.isEmpty())
        workloads.removeIf([&only](const Workload &w) { return w.name != only; });
    for (const Workload &w : workloads)
        std::printf("  %-8s %s\n", qPrintable(w.name), qPrintable(w.description));

    const QString qcode = QStringLiteral(QCODE_BINARY);
    QList<Figures> ours;
    for (const Workload &workload : workloads) {
        const Figures figures = runWorkload(workload, qcode, {u"run"_s});
        ours.append(figures);
        printFigures("qcode", workload, figures, true);
        if (workload.name == "tools"_L1) {
            const QStringList failed = failedToolLines(figures.lastErr);
            if (!failed.isEmpty())
                std::printf("        tools that did not complete (missing or failing in this build):\n          %s\n",
                            qPrintable(failed.join(u"\n          "_s)));
        }
        if (workload.name == "deltas"_L1 && figures.failures < repeats())
            std::printf("        answer bytes on stdout: %lld (%d deltas of 5)\n",
                        static_cast<long long>(figures.lastOut.size()), DeltaCount);
        if (workload.name == "parallel"_L1 && figures.failures < repeats())
            std::printf("        parallel tools: %d calls of %d s in one message took %.3f s of wall time "
                        "(~%d s when they run together, >= %d s one after another)\n",
                        ParallelCalls, ParallelCallSeconds, figures.wall, ParallelCallSeconds,
                        ParallelCalls * ParallelCallSeconds);
    }

    // The same machine, load and server for both: the fairest comparison.
    const QString opencode = qEnvironmentVariable("QCODE_BENCH_OPENCODE");
    if (!opencode.isEmpty()) {
        std::printf("OpenCode at %s, same workloads and config:\n", qPrintable(opencode));
        for (qsizetype i = 0; i < workloads.size(); ++i) {
            const Workload &workload = workloads.at(i);
            // OpenCode's spelling of --auto-approve is --auto.
            const QStringList extra =
                workload.extraArguments.contains(u"--auto-approve"_s) ? QStringList{u"--auto"_s} : QStringList{};
            const Figures figures = runWorkload(Workload{workload.name, workload.description, workload.opencode,
                                                         workload.prepare, extra},
                                                opencode, {u"run"_s, u"--format"_s, u"json"_s});
            printFigures("opencode", workload, figures, false);
            const Figures &q = ours.at(i);
            if (figures.cpu > 0 && figures.rss > 0 && q.cpu > 0 && q.rss > 0)
                std::printf("        qcode uses 1/%.0f of its CPU (target 1/20) and 1/%.0f of its memory (target 1/10)\n",
                            figures.cpu / q.cpu, figures.rss / q.rss);
        }
    }
    return 0;
#endif
}
