#pragma once

#include <QMainWindow>
#include <QPointer>

#include <memory>

#include "engine/config/LocalServer.h"

class QAction;
class QLabel;
class QMenu;
class QPushButton;
class QSplitter;
class QStackedWidget;

namespace qcode {

class AppSettings;
class Appearance;
class AskWiring;
class KeychainSecretStore;
class ProxyCredentialsAsker;
class SecretStore;
class SettingsDialog;
class Engine;
class SessionController;
class SessionPane;
class SessionSidebar;
class Store;

// The window people live in: a project folder's sessions on the left, the
// open session on the right, menus whose every action has a shortcut.
// It reads the database through its own connection (`store`, this thread)
// and talks to the engine (another thread) only by queued calls and its
// events, so it never waits on the network, a tool or a long query.
class MainWindow : public QMainWindow
{
    Q_OBJECT

public:
    MainWindow(Store *store, Engine *engine, QWidget *parent = nullptr);
    ~MainWindow() override;

    void openProject(const QString &directory);
    SessionController *controller() const { return m_controller; }
    SessionSidebar *sidebar() const { return m_sidebar; }
    SessionPane *pane() const { return m_pane; }
    AppSettings *settings() const { return m_settings; }
    // Opens the settings window (once; raised if open) at `page`.
    void openSettings(const QString &page = {});
    SettingsDialog *settingsDialog() const;
    // Where Settings looks for model servers (tests: servers they start).
    void setLocalServerProbes(const QList<LocalServer> &probes) { m_localServerProbes = probes; }
    // Where keys are kept: the store the engine reads them from (main()),
    // or a test's; not owned. By default the window's own.
    void setSecretStore(SecretStore *secrets);

    // Writes the open session to `path` (.md or .json; relative to the
    // project), or asks where when `path` is empty.
    void exportSession(const QString &path);
    void importSession(const QString &path);

Q_SIGNALS:
    // The folder is open and its sessions are listed.
    void projectOpened(const QString &directory);

protected:
    void changeEvent(QEvent *event) override;
    void closeEvent(QCloseEvent *event) override;
    void dragEnterEvent(QDragEnterEvent *event) override;
    void dropEvent(QDropEvent *event) override;

private:
    QWidget *createEmptyState();
    QWidget *createProjectView();
    void createMenus();
    QAction *addAction(QMenu *menu, const QKeySequence &shortcut);
    // Every text of the window itself, in the language in use.
    void retranslateUi();
    void updateWindowTitle();
    void chooseProject();
    void chooseImport();
    void rebuildRecentMenu();
    void rememberRecent(const QString &directory);
    void showStatus(const QString &message);
    void updateSessionActions();
    void copySessionAsMarkdown();
    void checkKeychain();
    void showShortcuts();
    void showAbout();

    Store *m_store;
    Engine *m_engine;
    SessionController *m_controller = nullptr;
    QStackedWidget *m_pages = nullptr;
    QSplitter *m_splitter = nullptr;
    SessionSidebar *m_sidebar = nullptr;
    SessionPane *m_pane = nullptr;
    QLabel *m_welcomeTitle = nullptr;
    QLabel *m_welcomeHint = nullptr;
    QPushButton *m_openButton = nullptr;
    QMenu *m_fileMenu = nullptr;
    QMenu *m_recentMenu = nullptr;
    QMenu *m_editMenu = nullptr;
    QMenu *m_sessionMenu = nullptr;
    QMenu *m_viewMenu = nullptr;
    QMenu *m_helpMenu = nullptr;
    struct Actions {
        QAction *open = nullptr;
        QAction *newSession = nullptr;
        QAction *exportSession = nullptr;
        QAction *importSession = nullptr;
        QAction *settings = nullptr;
        QAction *quit = nullptr;
        QAction *copySession = nullptr;
        QAction *findSession = nullptr;
        QAction *stop = nullptr;
        QAction *compact = nullptr;
        QAction *undo = nullptr;
        QAction *redo = nullptr;
        QAction *rename = nullptr;
        QAction *fork = nullptr;
        QAction *remove = nullptr;
        QAction *latest = nullptr;
        QAction *sidebar = nullptr;
        QAction *shortcuts = nullptr;
        QAction *readme = nullptr;
        QAction *about = nullptr;
    } m_actions;
    QString m_projectName; // the open folder's name, for the title
    QLabel *m_statusLabel = nullptr;
    QList<QAction *> m_sessionActions; // enabled only while a session is open
    AskWiring *m_asks = nullptr;
    AppSettings *m_settings = nullptr;
    Appearance *m_appearance = nullptr;
    QPointer<SettingsDialog> m_settingsDialog;
    QList<LocalServer> m_localServerProbes = LocalServer::defaultProbes();
    ProxyCredentialsAsker *m_proxyAsker = nullptr; // answers proxies that want credentials
    SecretStore *m_secretsInUse = nullptr; // the keychain, or the key file where none runs
};

} // namespace qcode
