#pragma once

#include <QFrame>
#include <QList>

#include "CompletionItem.h"

class QListWidget;

namespace qcode {

// The list the "@" and "/" popups show over the window. It never takes the
// keyboard: the editor keeps focus and forwards Up, Down, Enter, Tab and
// Escape (PromptCompleter), so typing goes on filtering while it is open,
// and an input method keeps working.
class CompletionPopup : public QFrame
{
    Q_OBJECT

public:
    static constexpr int VisibleRows = 10;

    explicit CompletionPopup(QWidget *parent = nullptr);

    void setItems(const QList<CompletionItem> &items);
    const QList<CompletionItem> &items() const { return m_items; }
    int currentRow() const;
    void setCurrentRow(int row);
    // Moves the selection, wrapping at either end.
    void moveCurrent(int delta);
    QListWidget *list() const { return m_list; }

    // Shows the popup above `anchor` (below it when there is no room), as
    // wide as the anchor, inside the anchor's window.
    void showAt(QWidget *anchor);

Q_SIGNALS:
    void activated(int row);

private:
    QList<CompletionItem> m_items;
    QListWidget *m_list = nullptr;
};

} // namespace qcode
