#pragma once

#include <QList>
#include <QString>
#include <QStringList>
#include <QTemporaryDir>

#include "engine/tool/bash/BashLineAnalysis.h"

namespace qcode {

// Runs a line with a real bash and lists the commands it executed, to
// compare with what BashLineAnalysis says the line can run.
//
// bash runs in a scratch folder with PATH holding only recording shims;
// BASH_ENV points to a prelude that disables every builtin enable -n can
// disable (so echo, printf, test, [, cd, read … go through PATH too) and
// defines command_not_found_handle to record the rest. Every external
// command therefore logs its name and arguments and does nothing. Lines
// must use relative paths only: bash runs for real, as whoever runs the
// tests.
class BashDifferential
{
public:
    BashDifferential();

    // False when the scratch folder or bash is missing (the reason says why).
    bool isReady() const { return m_error.isEmpty(); }
    // The one reason to skip: no bash to compare with. Any other setup
    // failure is the test's own and fails it.
    bool bashMissing() const { return m_bash.isEmpty(); }
    QString error() const { return m_error; }

    struct Run {
        QList<QStringList> executed; // argv of each command, in order
        bool timedOut = false;
    };
    Run run(const QString &line);

    // Empty when every executed command is one the analysis reported (by
    // name, and by its arguments where the reported words are all fixed);
    // otherwise what bash ran that the analysis missed. An opaque analysis
    // claims nothing, so nothing can be missed.
    static QString missed(const BashLineAnalysis &analysis, const QList<QStringList> &executed);

private:
    QTemporaryDir m_scratch;
    QString m_error;
    QString m_bash;
    int m_runs = 0;
};

} // namespace qcode
