// Parse throughput of recorded provider streams: bytes → SSE events →
// ProviderEvents, on one core, read in network-sized pieces. Prints the
// figures; asserts nothing about time (the target is ≥ 300k events/s).

#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QTextStream>

#include "engine/provider/ProviderStreamParser.h"

using namespace Qt::StringLiterals;
using namespace qcode;

namespace {

struct Workload {
    QString name;
    WireProtocol protocol;
    QStringList fixtures;
};

struct Figures {
    qint64 sseEvents = 0;
    qint64 providerEvents = 0;
    qint64 bytes = 0;
    qint64 nanoseconds = 0;
};

// One pass over each body, in 1400-byte reads (one TCP segment's payload).
void parseOnce(WireProtocol protocol, const QList<QByteArray> &bodies, Figures &figures)
{
    constexpr qsizetype ReadSize = 1400;
    for (const QByteArray &body : bodies) {
        ProviderStreamParser parser(protocol);
        for (qsizetype at = 0; at < body.size(); at += ReadSize)
            figures.providerEvents += parser.append(QByteArrayView(body).sliced(at, std::min(ReadSize, body.size() - at))).size();
        figures.providerEvents += parser.finish().size();
        figures.sseEvents += parser.reader().statistics().events;
        figures.bytes += body.size();
    }
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    QTextStream out(stdout);

    const QDir root(QDir(qEnvironmentVariable("QCODE_SHARED_DIR")).filePath(u"fixtures/providers"_s));
    if (!root.exists()) {
        out << "bench_provider_parse: skipped, the fixture folder " << root.path()
            << " is absent (set QCODE_SHARED_DIR)\n";
        return 0;
    }

    const QList<Workload> workloads{
        {u"OpenAI-style (chat completions)"_s, WireProtocol::OpenAIChat,
         {u"openai-chat/openai-chat-text-include-usage.sse"_s, u"openai-chat/deepseek-reasoning-tool-call-cache.sse"_s,
          u"openai-chat/llamacpp-reasoning-tool-call.sse"_s, u"openai-chat/openai-chat-parallel-tool-calls.sse"_s}},
        {u"Anthropic-style (messages)"_s, WireProtocol::AnthropicMessages,
         {u"anthropic/anthropic-thinking-signature-tool-use.sse"_s, u"anthropic/anthropic-text-plain.sse"_s,
          u"anthropic/anthropic-redacted-thinking.sse"_s, u"anthropic/anthropic-tool-use-streamed-args.sse"_s}},
    };

    for (const Workload &workload : workloads) {
        QList<QByteArray> bodies;
        for (const QString &fixture : workload.fixtures) {
            QFile file(root.filePath(fixture));
            if (file.open(QIODevice::ReadOnly))
                bodies.append(file.readAll());
        }
        if (bodies.isEmpty()) {
            out << workload.name << ": no fixtures found, skipped\n";
            continue;
        }

        // Warm up, then repeat until at least a second of work was timed
        // so one slow pass on a shared machine does not dominate.
        Figures warmup;
        parseOnce(workload.protocol, bodies, warmup);
        Figures figures;
        QElapsedTimer timer;
        timer.start();
        while (timer.elapsed() < 1000)
            parseOnce(workload.protocol, bodies, figures);
        figures.nanoseconds = timer.nsecsElapsed();

        const double seconds = double(figures.nanoseconds) / 1e9;
        out << Qt::fixed << qSetRealNumberPrecision(1) << workload.name << ": "
            << double(figures.sseEvents) / seconds / 1000.0 << "k SSE events/s, "
            << double(figures.providerEvents) / seconds / 1000.0 << "k provider events/s, "
            << double(figures.bytes) / seconds / (1024.0 * 1024.0) << " MB/s ("
            << figures.sseEvents << " events, " << figures.bytes << " bytes in " << seconds << " s)\n";
    }
    out << "target: >= 300k SSE events/s per protocol\n";
    return 0;
}
