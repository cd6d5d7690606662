#include "ShortcutsDialog.h"

#include <QAction>
#include <QDialogButtonBox>
#include <QHeaderView>
#include <QMenu>
#include <QMenuBar>
#include <QTreeWidget>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;

namespace qcode {

ShortcutsDialog::ShortcutsDialog(QMenuBar *menus, QWidget *parent) : QDialog(parent)
{
    setObjectName(u"shortcutsDialog"_s);
    setWindowTitle(tr("Keyboard Shortcuts"));
    m_list = new QTreeWidget(this);
    m_list->setObjectName(u"shortcutList"_s);
    m_list->setColumnCount(2);
    m_list->setHeaderLabels({tr("Keys"), tr("Action")});
    m_list->setRootIsDecorated(false);
    m_list->setSelectionMode(QAbstractItemView::NoSelection);
    m_list->header()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_list);
    layout->addWidget(buttons);
    fill(menus, parent);
    resize(560, 620);
}

void ShortcutsDialog::fill(QMenuBar *menus, QWidget *window)
{
    const auto section = [this](const QString &title) {
        auto *item = new QTreeWidgetItem(m_list, {title});
        item->setFirstColumnSpanned(true);
        QFont bold = item->font(0);
        bold.setBold(true);
        item->setFont(0, bold);
    };
    const auto row = [this](const QString &keys, const QString &action) {
        new QTreeWidgetItem(m_list, {keys, action});
    };
    const auto keysOf = [](const QAction *action) {
        QStringList keys;
        for (const QKeySequence &shortcut : action->shortcuts())
            keys.append(shortcut.toString(QKeySequence::NativeText));
        return keys.join(u", "_s);
    };
    const auto describe = [](const QAction *action) {
        return action->statusTip().isEmpty() ? action->text().remove(u'&') : action->statusTip();
    };
    QList<const QAction *> listed;
    for (QAction *menuAction : menus->actions()) {
        QMenu *menu = menuAction->menu();
        if (!menu)
            continue;
        bool titled = false;
        for (QAction *action : menu->actions()) {
            if (action->isSeparator() || action->menu() || action->shortcut().isEmpty())
                continue;
            if (!titled) {
                section(menu->title().remove(u'&'));
                titled = true;
            }
            row(keysOf(action), describe(action));
            listed.append(action);
        }
    }
    // Keys of a control rather than a menu (the session list's Delete).
    if (window) {
        bool titled = false;
        for (const QAction *action : window->findChildren<QAction *>()) {
            if (action->shortcuts().isEmpty() || listed.contains(action) || action->text().isEmpty())
                continue;
            if (!titled) {
                section(tr("In lists and panels"));
                titled = true;
            }
            row(keysOf(action), describe(action));
        }
    }
    section(tr("In the conversation"));
    row(tr("Space, Enter"), tr("Show or hide a tool call's details (its header has the focus)"));
    row(tr("Right / Left"), tr("Show / hide a tool call's details"));
    row(tr("Ctrl+Home"), tr("Scroll to the first message"));
    section(tr("In the prompt box"));
    row(tr("Enter, Ctrl+Enter"), tr("Send (while the agent works, the prompt is queued)"));
    row(tr("Shift+Enter"), tr("New line"));
    row(tr("Up / Down"), tr("Earlier / later prompts (on the first / last line)"));
    row(tr("Ctrl+. / Ctrl+Shift+."), tr("Next / previous agent"));
    row(u"@"_s, tr("Mention a project file or an agent"));
    row(tr("/ at the start"), tr("Commands"));
    row(tr("! at the start"), tr("Run the line in your shell"));
    row(tr("Ctrl+Shift+M"), tr("Choose the model"));
    row(tr("Esc"), tr("Close the popup; otherwise stop the agent while it works"));
    row(tr("Tab / Shift+Tab"), tr("Leave the prompt box (Ctrl+Tab while a list of suggestions is open)"));
}

} // namespace qcode
