#pragma once

#include <QPointer>
#include <QString>

#include <functional>
#include <memory>

#include "ui/permission/AskQueue.h"

namespace qcode {

class CodeHighlighter;

// What every widget of the chat shares: where the project is (paths under
// it are shown relative), the code highlighter, and the clock (elapsed
// times; tests pin it).
struct ChatContext {
    QString projectDirectory;
    // One for the whole chat (a backend loads its language definitions once); null: code is shown plain.
    std::shared_ptr<CodeHighlighter> highlighter;
    std::function<qint64()> clock; // ms since the epoch
    // The window's pending asks, answered in the cards of the calls that ask; null: none.
    QPointer<AskQueue> asks = {};
    // Shows a changed file (absolute path) in the window's Changes panel;
    // empty: edit cards do not link there.
    std::function<void(const QString &file)> showChanges;

    qint64 now() const;
};

} // namespace qcode
