#pragma once

#include <QDateTime>
#include <QString>

namespace qcode {

// OpenCode's Truncate.output (reference §8.0, tool/truncation.ts): output
// longer than 2000 lines or 50 KB is cut to what fits, the whole of it is
// saved under <data>/tool-output/<ascending tool id>, and the model reads
// the kept lines, how much was cut, and where to find the rest. Saved
// files are kept for a week.
class OutputTruncation
{
public:
    static constexpr qsizetype MaxLines = 2000;
    static constexpr qsizetype MaxBytes = 50 * 1024;
    static constexpr qint64 RetentionDays = 7;

    enum class Direction { Head, Tail };

    struct Limits {
        qsizetype maxLines = MaxLines;
        qsizetype maxBytes = MaxBytes; // UTF-8 bytes of the kept lines, +1 per newline
        Direction direction = Direction::Head;
    };

    struct Output {
        QString content;
        bool truncated = false;
        QString outputPath; // empty when not truncated, or when saving failed
    };

    explicit OutputTruncation(QString dataDirectory);

    // <dataDirectory>/tool-output
    QString directory() const;

    // `agentCanUseTask` picks the hint: delegate the file to a subagent, or
    // grep and read it in slices. When the full text cannot be saved the
    // cut output says so instead of naming a file that does not exist.
    Output truncate(const QString &text, bool agentCanUseTask, const Limits &limits) const;
    Output truncate(const QString &text, bool agentCanUseTask) const { return truncate(text, agentCanUseTask, Limits()); }

    // Deletes saved outputs last modified more than RetentionDays before
    // `now`; only files named like saved outputs ("tool_…") are touched.
    // Returns how many were removed. OpenCode runs this hourly.
    int removeExpired(const QDateTime &now = QDateTime::currentDateTimeUtc()) const;

private:
    QString save(const QString &text, QString *error) const;

    QString m_dataDirectory;
};

} // namespace qcode
