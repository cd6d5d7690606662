#pragma once

#include <QPointer>
#include <QWidget>

class QAction;
class QLineEdit;
class QMessageBox;
class QSortFilterProxyModel;
class QToolButton;
class QTreeView;

namespace qcode {

class SessionTreeModel;

// The left side of the window: the project's sessions, newest first, with
// subagent sessions nested under their parent; a search field; and the
// actions on a session — open, new, rename in place, fork, delete (after
// asking).
class SessionSidebar : public QWidget
{
    Q_OBJECT

public:
    SessionSidebar(SessionTreeModel *model, QWidget *parent = nullptr);

    void setCurrentSession(const QString &sessionID);
    QString currentSession() const { return m_current; }
    QTreeView *view() const { return m_view; }
    QLineEdit *searchField() const { return m_search; }
    // Starts editing the title of the session in place.
    void rename(const QString &sessionID);
    // Asks the person (window-modal, not a nested loop) and, on yes,
    // emits deleteConfirmed.
    void confirmDelete(const QString &sessionID);

Q_SIGNALS:
    void sessionActivated(const QString &sessionID);
    void newSessionRequested();
    void forkRequested(const QString &sessionID);
    void deleteConfirmed(const QString &sessionID);

protected:
    void changeEvent(QEvent *event) override;

private:
    void retranslateUi();
    // The words of the open delete question, for the session it asks about.
    void fillDeleteQuestion();
    QString idAt(const QModelIndex &proxyIndex) const;
    QModelIndex proxyIndexOf(const QString &sessionID) const;
    void showMenu(const QPoint &position);

    SessionTreeModel *m_model;
    QSortFilterProxyModel *m_proxy = nullptr;
    QLineEdit *m_search = nullptr;
    QTreeView *m_view = nullptr;
    QToolButton *m_new = nullptr;
    QAction *m_delete = nullptr;
    QPointer<QMessageBox> m_deleteQuestion; // while it waits for an answer
    QString m_deleteID;
    QString m_current;
};

} // namespace qcode
