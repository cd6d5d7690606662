#pragma once

#include <QCoreApplication>
#include <QList>
#include <QString>
#include <QStringList>

#include "model/Part.h"

namespace qcode {

// What a tool card shows below its header, read from the call's newest
// state: each field is empty when this tool or state has none of it.
struct ToolBody {
    Q_DECLARE_TR_FUNCTIONS(ToolBody)

public:
    enum class OutputEnd { Head, Tail }; // which end of long output matters
    struct TodoItem {
        QString content;
        QString status; // pending, in_progress, completed, cancelled
    };

    QString input;          // monospace: a command, or the raw JSON of an input it cannot read
    QString diff;           // unified diff: the change, or the change asked for
    bool diffProposed = false;
    QString output;         // monospace
    OutputEnd outputEnd = OutputEnd::Head;
    int outputFirstLine = 0; // a read file's lines: the number of the first, for a gutter; 0: no gutter
    QString outputLanguage;  // the file name whose language colours the output; empty: plain
    QString details;        // prose: questions and answers, a subagent's answer
    QStringList notes;      // exit code, timeout, truncation, cleared output
    QList<TodoItem> todos;
    QString childSessionID; // a task's subagent session
    QString error;

    static ToolBody of(const ToolPart &part, const QString &projectDirectory);
};

} // namespace qcode
