#pragma once

#include <QList>
#include <QString>
#include <QStringList>

namespace qcode::test {

// Whether a shipped .ts file still matches the sources: a copy of it is
// brought up to date with lupdate (obsolete entries kept, so nothing that
// vanished goes unnoticed), then every entry that is not finished is one
// finding. The shipped file itself is never written.
//
// lupdate's warnings about the sources are kept too: "Class 'X' lacks
// Q_OBJECT macro" and its kin mean a text is filed under a context tr()
// does not ask for at run time, so it can never be translated.
class TsAudit
{
public:
    struct Finding {
        QString context;
        QString source;
        QString problem; // "unfinished", "vanished", "obsolete", "empty", "no context"

        QString toString() const;
        bool operator==(const Finding &) const = default;
    };

    struct Outcome {
        QString error; // lupdate could not run or the file could not be read
        QList<Finding> findings;
        QStringList warnings; // lupdate's, one per line, naming file and line
        int entries = 0;
    };

    // `lupdate` is the program; `sources` the files it scans; `pluralOnly`
    // for a file that holds only numerus entries (English).
    TsAudit(QString lupdate, QStringList sources);

    Outcome audit(const QString &tsFile, bool pluralOnly) const;

    // The findings in a .ts file as it stands, without lupdate.
    static Outcome read(const QString &tsFile);

private:
    QString m_lupdate;
    QStringList m_sources;
};

} // namespace qcode::test
