#pragma once

#include <QDialog>

class QMenuBar;
class QTreeWidget;

namespace qcode {

// The keyboard shortcuts sheet (Help ▸ Keyboard Shortcuts): every menu
// action with its keys, read from the menus themselves so it is never out
// of date, then the other actions with keys in `parent` (the window: the
// session list's Delete), and the keys of the conversation and the prompt
// box, which are no actions.
class ShortcutsDialog : public QDialog
{
    Q_OBJECT

public:
    explicit ShortcutsDialog(QMenuBar *menus, QWidget *parent = nullptr);

    QTreeWidget *list() const { return m_list; }

private:
    void fill(QMenuBar *menus, QWidget *window);

    QTreeWidget *m_list = nullptr;
};

} // namespace qcode
