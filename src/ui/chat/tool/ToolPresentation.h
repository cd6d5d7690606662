#pragma once

#include <QCoreApplication>
#include <QString>

#include "model/Part.h"

namespace qcode {

// What a tool call's header says: which icon, a title naming the action
// and its object ("Read src/main.cpp", "Run `make -j2`"), and a subtitle
// with the one line worth knowing (the command's description, "12
// matches", "+3 −1"). Paths under the project are shown relative to it.
// An input that is missing a field or has one of the wrong type keeps the
// tool's plain title and shows the raw JSON as the subtitle.
struct ToolPresentation {
    Q_DECLARE_TR_FUNCTIONS(ToolPresentation)

public:
    QString iconName;
    QString title;
    QString subtitle;
};

ToolPresentation presentTool(const ToolPart &part, const QString &projectDirectory);

} // namespace qcode
