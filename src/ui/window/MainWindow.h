#pragma once

#include <QMainWindow>

class QLabel;
class QListView;
class QMenu;
class QStackedWidget;

namespace qcode {

class SessionListModel;
class Store;

// The top-level window. Before a project is open it shows an honest empty
// state; with one open, the project's sessions from the store.
class MainWindow : public QMainWindow
{
    Q_OBJECT

public:
    explicit MainWindow(Store *store, QWidget *parent = nullptr);
    ~MainWindow() override;

    void openProject(const QString &directory);
    QString projectDirectory() const { return m_projectDirectory; }

protected:
    void closeEvent(QCloseEvent *event) override;

private:
    void chooseProject();
    void rebuildRecentMenu();
    QWidget *createEmptyState();
    QWidget *createProjectView();

    Store *m_store = nullptr;
    QString m_projectDirectory;
    QStackedWidget *m_pages = nullptr;
    QLabel *m_projectHint = nullptr;
    QListView *m_sessionView = nullptr;
    SessionListModel *m_sessions = nullptr;
    QMenu *m_recentMenu = nullptr;
};

} // namespace qcode
