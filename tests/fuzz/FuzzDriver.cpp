// main() for fuzz targets built without libFuzzer: replays every seed file
// given (files or folders), then a fixed number of deterministic mutations
// of them, and reports what it ran. Same seed, same inputs: a failure here
// reproduces exactly.
#include <QByteArray>
#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <QRandomGenerator>

#include <cstdio>
#include <cstring>

#include "FuzzTarget.h"

namespace {

void run(const QByteArray &input)
{
    LLVMFuzzerTestOneInput(reinterpret_cast<const uint8_t *>(input.constData()), size_t(input.size()));
}

QByteArray mutate(QByteArray input, const QList<QByteArray> &seeds, QRandomGenerator &rng)
{
    const int edits = 1 + int(rng.bounded(8));
    for (int i = 0; i < edits; ++i) {
        const qsizetype size = input.size();
        switch (rng.bounded(7)) {
        case 0: // flip a bit
            if (size > 0)
                input[rng.bounded(size)] ^= char(1 << rng.bounded(8));
            break;
        case 1: // insert an interesting byte
            input.insert(size > 0 ? rng.bounded(size + 1) : 0, "\n\r:{}\"\\\xff\xc3\x00"[rng.bounded(10)]);
            break;
        case 2: // delete a range
            if (size > 1) {
                const qsizetype at = rng.bounded(size);
                input.remove(at, rng.bounded(std::min<qsizetype>(64, size - at)) + 1);
            }
            break;
        case 3: // duplicate a range
            if (size > 1) {
                const qsizetype at = rng.bounded(size);
                input.insert(rng.bounded(size), input.mid(at, rng.bounded(std::min<qsizetype>(128, size - at)) + 1));
            }
            break;
        case 4: // truncate
            if (size > 0)
                input.truncate(rng.bounded(size));
            break;
        case 5: // splice with another seed
            if (!seeds.isEmpty()) {
                const QByteArray &other = seeds[rng.bounded(seeds.size())];
                input = input.left(size > 0 ? rng.bounded(size) : 0) + other.mid(other.isEmpty() ? 0 : rng.bounded(other.size()));
            }
            break;
        default: // change the mode/split byte
            if (size > 0)
                input[0] = char(rng.bounded(256));
            break;
        }
    }
    return input;
}

} // namespace

int main(int argc, char *argv[])
{
    int iterations = 2000;
    quint32 seed = 1;
    QList<QByteArray> seeds;
    for (int i = 1; i < argc; ++i) {
        if (std::strcmp(argv[i], "--iterations") == 0 && i + 1 < argc) {
            iterations = std::atoi(argv[++i]);
            continue;
        }
        if (std::strcmp(argv[i], "--seed") == 0 && i + 1 < argc) {
            seed = quint32(std::strtoul(argv[++i], nullptr, 10));
            continue;
        }
        const QString path = QString::fromLocal8Bit(argv[i]);
        QStringList files;
        if (QFileInfo(path).isDir()) {
            QDirIterator it(path, QDir::Files, QDirIterator::Subdirectories);
            while (it.hasNext())
                files.append(it.next());
        } else if (QFileInfo(path).isFile()) {
            files.append(path);
        } else {
            std::printf("fuzz: %s is absent; skipped\n", argv[i]);
        }
        files.sort();
        for (const QString &file : files) {
            QFile f(file);
            if (f.open(QIODevice::ReadOnly))
                seeds.append(f.readAll());
        }
    }
    // Both modes of every target (the first byte picks it) for every seed.
    QList<QByteArray> inputs;
    for (const QByteArray &s : std::as_const(seeds)) {
        inputs.append(QByteArray(1, '\x00') + s);
        inputs.append(QByteArray(1, '\x01') + s);
    }
    if (inputs.isEmpty())
        inputs = {QByteArray("\x00data: {}\n\n", 12), QByteArray("\x01{\"type\":\"x\"}", 13)};
    for (const QByteArray &input : std::as_const(inputs))
        run(input);
    QRandomGenerator rng(seed);
    for (int i = 0; i < iterations; ++i)
        run(mutate(inputs[rng.bounded(inputs.size())], seeds, rng));
    std::printf("fuzz: %lld seed inputs and %d mutations ran without a crash (seed %u)\n",
                static_cast<long long>(inputs.size()), iterations, seed);
    return 0;
}
