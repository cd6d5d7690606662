#pragma once

#include <QPointer>
#include <QWidget>

class QAction;
class QLineEdit;
class QMessageBox;
class QLabel;
class QTimer;
class QToolButton;
class QTreeView;

namespace qcode {

class SessionFilter;
class SessionItemDelegate;
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
    SessionItemDelegate *delegate() const { return m_delegate; }
    SessionFilter *filter() const { return m_proxy; }
    // "No sessions match", shown while a search finds nothing.
    QLabel *noMatchLabel() const { return m_noMatch; }
    // What a search of the sessions' messages found (contentSearchRequested).
    void setContentMatches(const QString &text, const QStringList &sessionIDs);
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
    // The search words settled: the window searches the messages for them.
    void contentSearchRequested(const QString &text);

protected:
    void changeEvent(QEvent *event) override;
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void retranslateUi();
    // The words of the open delete question, for the session it asks about.
    void fillDeleteQuestion();
    QString idAt(const QModelIndex &proxyIndex) const;
    QModelIndex proxyIndexOf(const QString &sessionID) const;
    void showMenu(const QPoint &position);

    SessionTreeModel *m_model;
    void searchChanged(const QString &text);
    void afterFiltering();

    SessionFilter *m_proxy = nullptr;
    QLabel *m_noMatch = nullptr;
    QTimer *m_searchPause = nullptr; // the messages are searched when typing pauses
    QLineEdit *m_search = nullptr;
    QTreeView *m_view = nullptr;
    SessionItemDelegate *m_delegate = nullptr;
    QTimer *m_clockTick = nullptr; // "2 min ago" moves on
    QToolButton *m_new = nullptr;
    QAction *m_delete = nullptr;
    QPointer<QMessageBox> m_deleteQuestion; // while it waits for an answer
    QString m_deleteID;
    QString m_current;
};

} // namespace qcode
