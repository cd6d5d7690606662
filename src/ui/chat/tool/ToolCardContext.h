#pragma once

#include <QString>

#include <functional>

namespace qcode {

// What every tool card of one chat shares.
struct ToolCardContext {
    QString projectDirectory;      // paths under it are shown relative
    std::function<qint64()> clock; // ms since the epoch; empty: the system clock
    // "Show in Changes" on a card that changed a file (its absolute path);
    // empty: the cards offer no such link.
    std::function<void(const QString &file)> showChanges;
};

} // namespace qcode
