#pragma once

#include <QPointer>
#include <QString>

#include <functional>

#include "ui/permission/AskQueue.h"

namespace qcode {

class CodeHighlighter;

// What every tool card of one chat shares.
struct ToolCardContext {
    QString projectDirectory;      // paths under it are shown relative
    std::function<qint64()> clock; // ms since the epoch; empty: the system clock
    CodeHighlighter *highlighter = nullptr; // the chat's, not owned; null: a file's lines are plain
    // The window's pending asks: a call's own is answered in its card. Null: none are.
    QPointer<AskQueue> asks = {};
    // "Show in Changes" on a card that changed a file (its absolute path);
    // empty: the cards offer no such link.
    std::function<void(const QString &file)> showChanges;
};

} // namespace qcode
