#pragma once

#include <QByteArray>
#include <QFile>
#include <QString>

namespace qcode::test {

// Alive and not a zombie waiting to be reaped (Linux: /proc/<pid>/stat),
// for the tests that check a killed command left no process behind.
inline bool processRuns(qint64 pid)
{
    QFile stat(QStringLiteral("/proc/%1/stat").arg(pid));
    if (!stat.open(QIODevice::ReadOnly))
        return false;
    const QByteArray line = stat.readAll();
    const qsizetype close = line.lastIndexOf(')');
    return close >= 0 && close + 2 < line.size() && line.at(close + 2) != 'Z' && line.at(close + 2) != 'X';
}

} // namespace qcode::test
