// The bash permission checker against a real bash: bytes choose a line
// from the grammar's constructs (BashLineGenerator); when the checker
// claims to understand it, every command bash executes must be one it
// reported. The raw bytes are parsed too, for crash-freedom.
#include <QString>

#include <cstdio>

#include "BashDifferential.h"
#include "BashLineGenerator.h"
#include "FuzzTarget.h"
#include "engine/tool/bash/BashLineAnalysis.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    using namespace qcode;
    const QByteArray bytes(reinterpret_cast<const char *>(data), qsizetype(size));
    const BashLineAnalysis raw = BashLineAnalysis::analyze(QString::fromUtf8(bytes));
    for (const BashLineAnalysis::Command &command : raw.commands())
        FUZZ_CHECK(command.setsVariables || !command.words.isEmpty());

    static BashDifferential bash;
    if (bash.bashMissing())
        return 0; // nothing to compare with; the parse above still ran
    FUZZ_CHECK(bash.isReady());
    BashLineGenerator generator(bytes);
    const QString line = generator.line();
    const BashLineAnalysis analysis = BashLineAnalysis::analyze(line);
    if (analysis.isOpaque())
        return 0;
    const BashDifferential::Run run = bash.run(line);
    const QString miss = BashDifferential::missed(analysis, run.executed);
    if (!miss.isEmpty()) {
        fprintf(stderr, "line: %s\n%s\n", qPrintable(line), qPrintable(miss));
        FUZZ_CHECK(false);
    }
    return 0;
}
