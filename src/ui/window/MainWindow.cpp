#include "MainWindow.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QCloseEvent>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QMimeData>
#include <QDesktopServices>
#include <QDir>
#include <QMessageBox>
#include <QUrl>
#include <QEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMenuBar>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSettings>
#include <QSplitter>
#include <QStackedWidget>
#include <QStandardPaths>
#include <QStatusBar>
#include <QRegularExpression>
#include <QTreeView>
#include <QVBoxLayout>
#include <QtConcurrent>

#include "Appearance.h"
#include "AskWiring.h"
#include "SessionController.h"
#include "SessionPane.h"
#include "KeychainNotice.h"
#include "SessionSidebar.h"
#include "ShortcutsDialog.h"
#include "engine/Engine.h"
#include "engine/config/ConfigLocations.h"
#include "engine/config/DataPaths.h"
#include "engine/config/FallbackSecretStore.h"
#include "engine/config/KeychainSecretStore.h"
#include "engine/session/project/ProjectInstance.h"
#include "model/SessionFiles.h"
#include "model/SessionSearch.h"
#include "model/Store.h"
#include "ui/chat/ChatView.h"
#include "ProxyCredentialsAsker.h"
#include "ui/notify/Notifier.h"
#include "ui/prompt/PromptBox.h"
#include "ui/settings/AppSettings.h"
#include "ui/settings/SettingsDialog.h"
#include "ui/highlight/CodeHighlighter.h"
#include "ui/i18n/LanguageSwitcher.h"
#include "ui/support/Background.h"

using namespace Qt::StringLiterals;

namespace qcode {
namespace {

// The key store when main() hands none over (tests): one for the process,
// never destroyed with a window, since a keychain job may still answer
// after the window that started it (through Settings) is gone.
SecretStore *processSecretStore()
{
    static KeychainSecretStore keychain;
    static FallbackSecretStore secrets(&keychain, FallbackSecretStore::systemFilePath());
    return &secrets;
}

constexpr int MaxRecentProjects = 10;
const QString RecentKey = u"projects/recent"_s;
const QString GeometryKey = u"window/geometry"_s;
const QString StateKey = u"window/state"_s;
const QString SplitterKey = u"window/splitter"_s;

} // namespace

MainWindow::MainWindow(Store *store, Engine *engine, QWidget *parent)
    : QMainWindow(parent)
    , m_store(store)
    , m_engine(engine)
{
    m_settings = new AppSettings(this);
    m_appearance = new Appearance(m_settings, this);
    m_appearance->apply();
    // The language saved at start was applied before the window was made.
    connect(m_settings, &AppSettings::languageChanged, this,
            [this] { LanguageSwitcher::instance()->apply(m_settings->language()); });
    m_secretsInUse = processSecretStore();
    m_proxyAsker = new ProxyCredentialsAsker(this, m_secretsInUse);
    m_controller = new SessionController(store, engine, this);

    m_pages = new QStackedWidget(this);
    m_pages->addWidget(createEmptyState());
    m_pages->addWidget(createProjectView());
    setCentralWidget(m_pages);
    createMenus();

    m_statusLabel = new QLabel(this);
    m_statusLabel->setObjectName(u"sessionStatus"_s);
    statusBar()->addPermanentWidget(m_statusLabel);
    retranslateUi();

    connect(m_controller, &SessionController::projectOpened, this, [this](const QString &directory) {
        m_pages->setCurrentIndex(1);
        const QModelIndex newest = m_controller->sessions()->index(0, 0);
        if (newest.isValid())
            m_controller->showSession(newest.data(SessionTreeModel::IdRole).toString());
        Q_EMIT projectOpened(directory);
    });
    connect(m_controller, &SessionController::projectDescribed, this, &MainWindow::checkKeychain);
    connect(m_controller, &SessionController::projectFailed, this,
            [this](const QString &, const QString &message) { showStatus(message); });
    connect(m_controller, &SessionController::currentSessionChanged, this, [this](const QString &sessionID) {
        m_sidebar->setCurrentSession(sessionID);
        updateSessionActions();
    });
    connect(m_controller, &SessionController::sessionStatusChanged, this, [this] { updateSessionActions(); });
    connect(m_controller, &SessionController::errorReported, this,
            [this](const std::optional<QString> &sessionID, const QString &message) {
                if (!sessionID || sessionID->isEmpty() || *sessionID == m_controller->currentSession())
                    showStatus(message);
            });
    connect(m_controller, &SessionController::sessionCompacted, this, [this](const QString &sessionID) {
        if (sessionID == m_controller->currentSession())
            showStatus(tr("The conversation was summarized to fit the model's context."));
    });

    m_asks = new AskWiring(m_controller, this);
    m_asks->notifier()->setEnabled(m_settings->notificationsEnabled());
    connect(m_settings, &AppSettings::notificationsChanged, this,
            [this] { m_asks->notifier()->setEnabled(m_settings->notificationsEnabled()); });
    connect(m_pane, &SessionPane::exportRequested, this, &MainWindow::exportSession);
    connect(m_pane, &SessionPane::connectProviderRequested, this, [this] { openSettings(u"providers"_s); });
    setAcceptDrops(true);

    QSettings settings;
    if (!restoreGeometry(settings.value(GeometryKey).toByteArray()))
        resize(1200, 800);
    restoreState(settings.value(StateKey).toByteArray());
    m_splitter->restoreState(settings.value(SplitterKey).toByteArray());
    updateSessionActions();
}

MainWindow::~MainWindow() = default;

QWidget *MainWindow::createEmptyState()
{
    auto *page = new QWidget(this);
    auto *layout = new QVBoxLayout(page);
    layout->addStretch();
    m_welcomeTitle = new QLabel(page);
    m_welcomeTitle->setObjectName(u"welcomeTitle"_s);
    QFont big = m_welcomeTitle->font();
    big.setPointSizeF(big.pointSizeF() * 1.6);
    m_welcomeTitle->setFont(big);
    m_welcomeTitle->setAlignment(Qt::AlignCenter);
    m_welcomeHint = new QLabel(page);
    m_welcomeHint->setWordWrap(true);
    m_welcomeHint->setAlignment(Qt::AlignCenter);
    m_openButton = new QPushButton(page);
    m_openButton->setObjectName(u"openProjectButton"_s);
    connect(m_openButton, &QPushButton::clicked, this, &MainWindow::chooseProject);
    layout->addWidget(m_welcomeTitle);
    layout->addWidget(m_welcomeHint);
    layout->addWidget(m_openButton, 0, Qt::AlignCenter);
    layout->addStretch();
    return page;
}

QWidget *MainWindow::createProjectView()
{
    m_splitter = new QSplitter(this);
    m_splitter->setObjectName(u"projectSplitter"_s);
    m_sidebar = new SessionSidebar(m_controller->sessions(), m_splitter);
    ChatContext context;
    context.highlighter = CodeHighlighter::create();
    m_pane = new SessionPane(m_controller, context, m_splitter);
    m_splitter->addWidget(m_sidebar);
    m_splitter->addWidget(m_pane);
    m_splitter->setStretchFactor(0, 0);
    m_splitter->setStretchFactor(1, 1);
    m_splitter->setSizes({260, 940});
    m_splitter->setChildrenCollapsible(false);

    connect(m_sidebar, &SessionSidebar::sessionActivated, m_controller, &SessionController::showSession);
    connect(m_sidebar, &SessionSidebar::newSessionRequested, m_controller, &SessionController::newSession);
    connect(m_sidebar, &SessionSidebar::forkRequested, m_controller,
            [this](const QString &sessionID) { m_controller->fork(sessionID); });
    connect(m_sidebar, &SessionSidebar::deleteConfirmed, m_controller, &SessionController::remove);
    connect(m_sidebar, &SessionSidebar::contentSearchRequested, this, [this](const QString &text) {
        const QString database = m_store->path();
        const QString projectID = m_controller->projectID();
        runInBackground(
            this, [database, projectID, text] { return SessionSearch::sessionsContaining(database, projectID, text); },
            [this, text](const Result<QStringList> &found) {
                if (!found) {
                    showStatus(found.errorMessage());
                    return;
                }
                m_sidebar->setContentMatches(text, *found);
            });
    });

    ChatView *chat = m_pane->chatView();
    connect(chat, &ChatView::openSessionRequested, m_controller, &SessionController::showSession);
    connect(chat, &ChatView::retryRequested, m_controller, &SessionController::retry);
    connect(chat, &ChatView::settingsRequested, this, [this] { openSettings(u"providers"_s); });
    connect(chat, &ChatView::revertRequested, m_controller, &SessionController::revertTo);
    connect(chat, &ChatView::forkRequested, m_controller, [this](const QString &messageID) {
        m_controller->fork(m_controller->currentSession(), messageID);
    });
    return m_splitter;
}

QAction *MainWindow::addAction(QMenu *menu, const QKeySequence &shortcut)
{
    QAction *action = menu->addAction(QString());
    action->setShortcut(shortcut);
    return action;
}

void MainWindow::createMenus()
{
    m_fileMenu = menuBar()->addMenu(QString());
    m_actions.open = addAction(m_fileMenu, QKeySequence::Open);
    connect(m_actions.open, &QAction::triggered, this, &MainWindow::chooseProject);
    m_recentMenu = m_fileMenu->addMenu(QString());
    m_fileMenu->addSeparator();
    m_actions.newSession = addAction(m_fileMenu, QKeySequence::New);
    connect(m_actions.newSession, &QAction::triggered, m_controller, &SessionController::newSession);
    m_actions.exportSession = addAction(m_fileMenu, QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_E));
    connect(m_actions.exportSession, &QAction::triggered, this, [this] { exportSession({}); });
    m_actions.importSession = addAction(m_fileMenu, QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_I));
    connect(m_actions.importSession, &QAction::triggered, this, &MainWindow::chooseImport);
    m_fileMenu->addSeparator();
    const QKeySequence preferencesKey =
        QKeySequence::keyBindings(QKeySequence::Preferences).value(0, QKeySequence(Qt::CTRL | Qt::Key_Comma));
    m_actions.settings = addAction(m_fileMenu, preferencesKey);
    m_actions.settings->setMenuRole(QAction::PreferencesRole);
    connect(m_actions.settings, &QAction::triggered, this, [this] { openSettings(); });
    m_fileMenu->addSeparator();
    // Some desktops define no standard Quit key; Ctrl+Q is everyone's.
    const QKeySequence quitKey = QKeySequence::keyBindings(QKeySequence::Quit).value(0, QKeySequence(Qt::CTRL | Qt::Key_Q));
    m_actions.quit = addAction(m_fileMenu, quitKey);
    connect(m_actions.quit, &QAction::triggered, qApp, &QApplication::closeAllWindows);

    m_editMenu = menuBar()->addMenu(QString());
    m_actions.copySession = addAction(m_editMenu, QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_C));
    connect(m_actions.copySession, &QAction::triggered, this, &MainWindow::copySessionAsMarkdown);
    m_actions.findSession = addAction(m_editMenu, QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_F));
    connect(m_actions.findSession, &QAction::triggered, this, [this] {
        m_sidebar->searchField()->setFocus();
        m_sidebar->searchField()->selectAll();
    });

    m_sessionMenu = menuBar()->addMenu(QString());
    m_actions.stop = addAction(m_sessionMenu, QKeySequence(Qt::Key_Escape));
    m_actions.stop->setShortcutContext(Qt::WindowShortcut);
    connect(m_actions.stop, &QAction::triggered, m_controller, &SessionController::abort);
    m_actions.compact = addAction(m_sessionMenu, QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_K));
    connect(m_actions.compact, &QAction::triggered, m_controller, &SessionController::compact);
    m_sessionMenu->addSeparator();
    m_actions.undo = addAction(m_sessionMenu, QKeySequence(Qt::CTRL | Qt::ALT | Qt::Key_Z));
    connect(m_actions.undo, &QAction::triggered, m_controller, &SessionController::undo);
    m_actions.redo = addAction(m_sessionMenu, QKeySequence(Qt::CTRL | Qt::ALT | Qt::SHIFT | Qt::Key_Z));
    connect(m_actions.redo, &QAction::triggered, m_controller, &SessionController::redo);
    m_sessionMenu->addSeparator();
    m_actions.rename = addAction(m_sessionMenu, QKeySequence(Qt::Key_F2));
    connect(m_actions.rename, &QAction::triggered, this, [this] { m_sidebar->rename(m_controller->currentSession()); });
    m_actions.fork = addAction(m_sessionMenu, QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_D));
    connect(m_actions.fork, &QAction::triggered, this, [this] { m_controller->fork(m_controller->currentSession()); });
    m_actions.remove = addAction(m_sessionMenu, QKeySequence(Qt::CTRL | Qt::Key_Delete));
    connect(m_actions.remove, &QAction::triggered, this,
            [this] { m_sidebar->confirmDelete(m_controller->currentSession()); });
    m_sessionActions = {m_actions.exportSession, m_actions.copySession, m_actions.compact, m_actions.undo,
                        m_actions.redo,          m_actions.rename,      m_actions.fork,    m_actions.remove};

    m_viewMenu = menuBar()->addMenu(QString());
    m_actions.latest = addAction(m_viewMenu, QKeySequence(Qt::CTRL | Qt::Key_End));
    connect(m_actions.latest, &QAction::triggered, this, [this] { m_pane->chatView()->scrollToBottom(); });
    m_actions.sidebar = addAction(m_viewMenu, QKeySequence(Qt::CTRL | Qt::Key_B));
    m_actions.sidebar->setCheckable(true);
    m_actions.sidebar->setChecked(true);
    connect(m_actions.sidebar, &QAction::toggled, m_sidebar, &QWidget::setVisible);

    m_helpMenu = menuBar()->addMenu(QString());
    m_actions.shortcuts = addAction(m_helpMenu, QKeySequence(Qt::CTRL | Qt::Key_Slash));
    connect(m_actions.shortcuts, &QAction::triggered, this, &MainWindow::showShortcuts);
    m_actions.readme = addAction(m_helpMenu, QKeySequence(QKeySequence::HelpContents).isEmpty()
                                                 ? QKeySequence(Qt::Key_F1)
                                                 : QKeySequence(QKeySequence::HelpContents));
    connect(m_actions.readme, &QAction::triggered, this,
            [] { QDesktopServices::openUrl(QUrl(u"https://github.com/qcode-app/qcode#readme"_s)); });
    m_helpMenu->addSeparator();
    // About has no key anywhere; it moves to the application menu on macOS.
    m_actions.about = m_helpMenu->addAction(QString());
    m_actions.about->setMenuRole(QAction::AboutRole);
    connect(m_actions.about, &QAction::triggered, this, &MainWindow::showAbout);

    rebuildRecentMenu();
}

void MainWindow::retranslateUi()
{
    // An action's tooltip names its keys; its status tip is the sentence alone.
    const auto describe = [this](QAction *action, const QString &text, const QString &tip) {
        action->setText(text);
        const QString keys = action->shortcut().toString(QKeySequence::NativeText);
        action->setToolTip(keys.isEmpty() ? tip : tr("%1 (%2)").arg(tip, keys));
        action->setStatusTip(tip);
    };
    updateWindowTitle();
    m_welcomeTitle->setText(tr("Open a project folder"));
    m_welcomeHint->setText(tr("qcode works inside one folder at a time: the agent reads and changes the files "
                              "there, with your permission."));
    m_openButton->setText(tr("Open Folder…"));
    m_openButton->setToolTip(
        tr("Open a project folder (%1)").arg(QKeySequence(QKeySequence::Open).toString(QKeySequence::NativeText)));

    m_fileMenu->setTitle(tr("&File"));
    describe(m_actions.open, tr("&Open Project Folder…"), tr("Open a project folder"));
    m_recentMenu->setTitle(tr("Open &Recent"));
    describe(m_actions.newSession, tr("&New Session"), tr("Start a new session"));
    describe(m_actions.exportSession, tr("&Export Session…"),
             tr("Save the open session as Markdown or as OpenCode's JSON"));
    describe(m_actions.importSession, tr("&Import Session…"), tr("Add a session from an OpenCode or qcode JSON export"));
    describe(m_actions.settings, tr("&Settings…"), tr("Providers and keys, default model, theme, permissions"));
    describe(m_actions.quit, tr("&Quit"), tr("Quit qcode"));

    m_editMenu->setTitle(tr("&Edit"));
    describe(m_actions.copySession, tr("Copy Session as &Markdown"), tr("Copy the whole conversation as Markdown"));
    describe(m_actions.findSession, tr("&Find Session"), tr("Search the sessions by title and by what was said in them"));

    m_sessionMenu->setTitle(tr("&Session"));
    describe(m_actions.stop, tr("&Stop"), tr("Stop the running turn"));
    describe(m_actions.compact, tr("&Compact"), tr("Summarize the conversation so far to free the model's context"));
    describe(m_actions.undo, tr("&Undo Last Prompt"), tr("Take back the last prompt and the file changes it made"));
    describe(m_actions.redo, tr("&Redo"), tr("Bring back what the last undo took back"));
    describe(m_actions.rename, tr("Re&name"), tr("Rename the open session"));
    describe(m_actions.fork, tr("&Fork"), tr("A copy of the open session, to try another way"));
    describe(m_actions.remove, tr("&Delete…"), tr("Delete the open session"));

    m_viewMenu->setTitle(tr("&View"));
    describe(m_actions.latest, tr("Jump to &Latest"), tr("Scroll to the newest message"));
    describe(m_actions.sidebar, tr("Show &Sessions"), tr("Show or hide the list of sessions"));

    m_helpMenu->setTitle(tr("&Help"));
    describe(m_actions.shortcuts, tr("&Keyboard Shortcuts"), tr("Every key the window knows"));
    describe(m_actions.readme, tr("qcode &Guide"), tr("Open qcode's README in the browser"));
    describe(m_actions.about, tr("&About qcode"), tr("Version and licence"));

    updateSessionActions();
}

void MainWindow::updateWindowTitle()
{
    setWindowTitle(m_projectName.isEmpty() ? tr("qcode") : tr("%1 — qcode").arg(m_projectName));
}

void MainWindow::openSettings(const QString &page)
{
    if (m_settingsDialog) {
        if (!page.isEmpty())
            m_settingsDialog->showPage(page);
        m_settingsDialog->raise();
        m_settingsDialog->activateWindow();
        return;
    }
    SettingsContext context;
    context.engine = m_engine;
    context.store = m_store;
    context.app = m_settings;
    context.secrets = m_secretsInUse;
    context.projectID = m_controller->projectID();
    context.localServerProbes = m_localServerProbes;
    const QString directory = m_controller->projectDirectory().isEmpty() ? QDir::homePath()
                                                                         : m_controller->projectDirectory();
    context.loadConfiguration(ConfigLocations::forSystem(directory, ProjectInstance::findWorktree(directory)),
                              DataPaths::dataDirectory());
    auto *dialog = new SettingsDialog(std::move(context), this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    if (!page.isEmpty())
        dialog->showPage(page);
    m_settingsDialog = dialog;
    // Keys, providers, agents and the default model apply to the next prompt.
    connect(dialog, &QObject::destroyed, m_controller, &SessionController::reloadProject);
    dialog->show();
}

SettingsDialog *MainWindow::settingsDialog() const
{
    return m_settingsDialog;
}

void MainWindow::chooseProject()
{
    auto *dialog = new QFileDialog(this, tr("Open Project Folder"), m_controller->projectDirectory());
    dialog->setFileMode(QFileDialog::Directory);
    dialog->setOption(QFileDialog::ShowDirsOnly);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &QFileDialog::fileSelected, this, &MainWindow::openProject);
    dialog->open();
}

void MainWindow::openProject(const QString &directory)
{
    const QFileInfo info(directory);
    if (!info.isDir()) {
        showStatus(tr("%1 is not a folder.").arg(QDir::toNativeSeparators(directory)));
        return;
    }
    const QString folder = QDir::cleanPath(info.absoluteFilePath());
    m_projectName = info.fileName();
    updateWindowTitle();
    rememberRecent(folder);
    m_controller->openProject(folder);
}

void MainWindow::rememberRecent(const QString &directory)
{
    QSettings settings;
    QStringList recent = settings.value(RecentKey).toStringList();
    recent.removeAll(directory);
    recent.prepend(directory);
    settings.setValue(RecentKey, QStringList(recent.mid(0, MaxRecentProjects)));
    rebuildRecentMenu();
}

void MainWindow::rebuildRecentMenu()
{
    m_recentMenu->clear();
    const QStringList recent = QSettings().value(RecentKey).toStringList();
    for (const QString &folder : recent) {
        QAction *action = m_recentMenu->addAction(QDir::toNativeSeparators(folder));
        connect(action, &QAction::triggered, this, [this, folder] { openProject(folder); });
    }
    m_recentMenu->setEnabled(!recent.isEmpty());
}

void MainWindow::showStatus(const QString &message)
{
    statusBar()->showMessage(message, 10000);
}

void MainWindow::updateSessionActions()
{
    const QString current = m_controller->currentSession();
    const bool open = !current.isEmpty();
    for (QAction *action : std::as_const(m_sessionActions))
        action->setEnabled(open);
    const bool busy = open && m_controller->isBusy(current);
    m_actions.stop->setEnabled(busy);
    const std::optional<SessionStatus> status = m_controller->status(current);
    if (!status)
        m_statusLabel->setText(open ? tr("Ready") : QString());
    else if (status->type == SessionStatus::Type::Retry)
        m_statusLabel->setText(tr("Waiting to retry"));
    else
        m_statusLabel->setText(tr("Working…"));
}

// The engine has read the project's keys by the time it describes the
// project, through the store the window shares with it (main()): where no
// keychain answered, one short notice, once per start, says where keys
// come from instead.
void MainWindow::setSecretStore(SecretStore *secrets)
{
    m_secretsInUse = secrets;
    m_proxyAsker->setSecretStore(secrets);
}

void MainWindow::checkKeychain()
{
    const FallbackSecretStore *fallback = FallbackSecretStore::of(m_secretsInUse);
    if (fallback && fallback->usesKeyFile())
        m_pane->keychainNotice()->showOnce();
}

void MainWindow::showShortcuts()
{
    auto *dialog = new ShortcutsDialog(menuBar(), this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->show();
}

void MainWindow::showAbout()
{
    auto *box = new QMessageBox(this);
    box->setObjectName(u"aboutBox"_s);
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->setWindowTitle(tr("About qcode"));
    box->setIconPixmap(windowIcon().pixmap(64, 64));
    box->setTextFormat(Qt::RichText);
    box->setText(tr("<h3>qcode %1</h3><p>A desktop coding agent: it reads and changes the files of one project "
                    "folder, with your permission.</p><p><a href=\"%2\">%2</a></p>")
                     .arg(QCoreApplication::applicationVersion().toHtmlEscaped(),
                          u"https://github.com/qcode-app/qcode"_s));
    box->setStandardButtons(QMessageBox::Close);
    box->open();
}

void MainWindow::copySessionAsMarkdown()
{
    const QString sessionID = m_controller->currentSession();
    if (sessionID.isEmpty())
        return;
    showStatus(tr("Copying the session…"));
    const QString path = m_store->path();
    const auto render = [path, sessionID] { return SessionFiles::render(path, sessionID, SessionFiles::Format::Markdown); };
    runInBackground(this, render, [this](const Result<QByteArray> &markdown) {
        if (!markdown) {
            showStatus(tr("The session could not be copied: %1").arg(markdown.errorMessage()));
            return;
        }
        QGuiApplication::clipboard()->setText(QString::fromUtf8(*markdown));
        showStatus(tr("The session is on the clipboard as Markdown."));
    });
}

void MainWindow::exportSession(const QString &path)
{
    const QString sessionID = m_controller->currentSession();
    if (sessionID.isEmpty())
        return;
    if (path.trimmed().isEmpty()) {
        // The shown title ("New session", not an ISO time), in the documents
        // folder: an export is for reading, not a file for the project.
        const QModelIndex index = m_controller->sessions()->indexOf(sessionID);
        QString name = index.isValid() ? index.data(Qt::DisplayRole).toString() : sessionID;
        name.replace(QRegularExpression(u"[^\\w .-]+"_s), u"-"_s);
        QString folder = QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation);
        if (folder.isEmpty() || !QFileInfo(folder).isDir())
            folder = QDir::homePath();
        auto *dialog = new QFileDialog(this, tr("Export Session"), QDir(folder).filePath(name + u".md"_s));
        dialog->setObjectName(u"exportDialog"_s);
        dialog->setAcceptMode(QFileDialog::AcceptSave);
        dialog->setNameFilters({tr("Markdown (*.md)"), tr("OpenCode export (*.json)")});
        dialog->setAttribute(Qt::WA_DeleteOnClose);
        connect(dialog, &QFileDialog::fileSelected, this, &MainWindow::exportSession);
        dialog->open();
        return;
    }
    const QString target = QDir(m_controller->projectDirectory()).absoluteFilePath(path.trimmed());
    const QString database = m_store->path();
    runInBackground(
        this, [database, sessionID, target] { return SessionFiles::exportTo(database, sessionID, target); },
        [this, target](const Result<void> &written) {
            showStatus(written ? tr("Exported to %1.").arg(QDir::toNativeSeparators(target))
                               : tr("The session was not exported: %1").arg(written.errorMessage()));
        });
}

void MainWindow::chooseImport()
{
    auto *dialog = new QFileDialog(this, tr("Import Session"), m_controller->projectDirectory(),
                                   tr("Session exports (*.json)"));
    dialog->setFileMode(QFileDialog::ExistingFile);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &QFileDialog::fileSelected, this, &MainWindow::importSession);
    dialog->open();
}

void MainWindow::importSession(const QString &path)
{
    const QString database = m_store->path();
    runInBackground(
        this, [database, path] { return SessionFiles::importFrom(database, path); },
        [this](const Result<QString> &imported) {
            if (!imported) {
                showStatus(tr("The session was not imported: %1").arg(imported.errorMessage()));
                return;
            }
            m_controller->reloadSessions();
            if (m_controller->sessions()->session(*imported)) {
                m_controller->showSession(*imported);
                showStatus(tr("Session imported."));
            } else {
                showStatus(tr("Session imported; it belongs to another project folder, where it is listed."));
            }
        });
}

void MainWindow::dragEnterEvent(QDragEnterEvent *event)
{
    if (m_pages->currentIndex() == 1 && (event->mimeData()->hasUrls() || event->mimeData()->hasImage()))
        event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent *event)
{
    // A drop anywhere on the window is a drop on the prompt box.
    if (m_pane->promptBox()->addDroppedMimeData(event->mimeData()))
        event->acceptProposedAction();
    m_pane->promptBox()->editor()->setFocus();
}

void MainWindow::changeEvent(QEvent *event)
{
    QMainWindow::changeEvent(event);
    if (event->type() == QEvent::LanguageChange)
        retranslateUi();
}

void MainWindow::closeEvent(QCloseEvent *event)
{
    QSettings settings;
    settings.setValue(GeometryKey, saveGeometry());
    settings.setValue(StateKey, saveState());
    settings.setValue(SplitterKey, m_splitter->saveState());
    event->accept();
}

} // namespace qcode
