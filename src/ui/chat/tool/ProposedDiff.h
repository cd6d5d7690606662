#pragma once

#include <QCoreApplication>
#include <QString>

namespace qcode {

// The change an edit, write or apply_patch call asks for, as a unified
// diff, worked out from the call's input alone: the card shows it while
// the person decides, before the tool has read the file and written its
// own diff. Hunks whose place in the file is unknown have no line numbers
// ("@@ @@").
class ProposedDiff
{
    Q_DECLARE_TR_FUNCTIONS(ProposedDiff)

public:
    static QString forEdit(const QString &path, const QString &oldString, const QString &newString);
    // A file written whole: every line added.
    static QString forWrite(const QString &path, const QString &content);
    // Empty when the patch text cannot be read (yet).
    static QString forPatch(const QString &patchText, const QString &projectDirectory);
};

} // namespace qcode
