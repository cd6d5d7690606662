#pragma once

#include <QDialog>

class QMenuBar;
class QTreeWidget;

namespace qcode {

// The keyboard shortcuts sheet (Help ▸ Keyboard Shortcuts): every menu
// action with its keys, read from the menus themselves so it is never out
// of date, and the prompt box's own keys.
class ShortcutsDialog : public QDialog
{
    Q_OBJECT

public:
    explicit ShortcutsDialog(QMenuBar *menus, QWidget *parent = nullptr);

    QTreeWidget *list() const { return m_list; }

private:
    void fill(QMenuBar *menus);

    QTreeWidget *m_list = nullptr;
};

} // namespace qcode
