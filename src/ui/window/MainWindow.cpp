#include "MainWindow.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QCloseEvent>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QMimeData>
#include <QDir>
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
#include <QStatusBar>
#include <QRegularExpression>
#include <QTreeView>
#include <QVBoxLayout>
#include <QtConcurrent>

#include "Appearance.h"
#include "AskWiring.h"
#include "SessionController.h"
#include "SessionPane.h"
#include "SessionSidebar.h"
#include "engine/Engine.h"
#include "engine/config/ConfigLocations.h"
#include "engine/config/DataPaths.h"
#include "engine/config/KeychainSecretStore.h"
#include "engine/session/ProjectInstance.h"
#include "model/SessionFiles.h"
#include "model/Store.h"
#include "ui/chat/ChatView.h"
#include "ui/notify/Notifier.h"
#include "ui/prompt/PromptBox.h"
#include "ui/settings/AppSettings.h"
#include "ui/settings/SettingsDialog.h"
#include "ui/highlight/CodeHighlighter.h"
#include "ui/support/Background.h"

using namespace Qt::StringLiterals;

namespace qcode {
namespace {

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
    setWindowTitle(tr("qcode"));
    m_settings = new AppSettings(this);
    m_appearance = new Appearance(m_settings, this);
    m_appearance->apply();
    m_secrets = std::make_unique<KeychainSecretStore>();
    m_controller = new SessionController(store, engine, this);

    m_pages = new QStackedWidget(this);
    m_pages->addWidget(createEmptyState());
    m_pages->addWidget(createProjectView());
    setCentralWidget(m_pages);
    createMenus();

    m_statusLabel = new QLabel(this);
    m_statusLabel->setObjectName(u"sessionStatus"_s);
    statusBar()->addPermanentWidget(m_statusLabel);
    showStatus(tr("Database: %1").arg(QDir::toNativeSeparators(m_store->path())));

    connect(m_controller, &SessionController::projectOpened, this, [this](const QString &directory) {
        m_pages->setCurrentIndex(1);
        const QModelIndex newest = m_controller->sessions()->index(0, 0);
        if (newest.isValid())
            m_controller->showSession(newest.data(SessionTreeModel::IdRole).toString());
        Q_EMIT projectOpened(directory);
    });
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
    auto *title = new QLabel(tr("Open a project folder"), page);
    QFont big = title->font();
    big.setPointSizeF(big.pointSizeF() * 1.6);
    title->setFont(big);
    title->setAlignment(Qt::AlignCenter);
    auto *hint = new QLabel(tr("qcode works inside one folder at a time: the agent reads and changes the files "
                               "there, with your permission."),
                            page);
    hint->setWordWrap(true);
    hint->setAlignment(Qt::AlignCenter);
    auto *button = new QPushButton(tr("Open Folder…"), page);
    button->setObjectName(u"openProjectButton"_s);
    button->setToolTip(tr("Open a project folder (%1)").arg(QKeySequence(QKeySequence::Open).toString(QKeySequence::NativeText)));
    connect(button, &QPushButton::clicked, this, &MainWindow::chooseProject);
    layout->addWidget(title);
    layout->addWidget(hint);
    layout->addWidget(button, 0, Qt::AlignCenter);
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

    ChatView *chat = m_pane->chatView();
    connect(chat, &ChatView::openSessionRequested, m_controller, &SessionController::showSession);
    connect(chat, &ChatView::retryRequested, m_controller, &SessionController::retry);
    connect(chat, &ChatView::revertRequested, m_controller, &SessionController::revertTo);
    connect(chat, &ChatView::forkRequested, m_controller, [this](const QString &messageID) {
        m_controller->fork(m_controller->currentSession(), messageID);
    });
    return m_splitter;
}

QAction *MainWindow::addAction(QMenu *menu, const QString &text, const QKeySequence &shortcut, const QString &tip)
{
    QAction *action = menu->addAction(text);
    action->setShortcut(shortcut);
    const QString keys = shortcut.toString(QKeySequence::NativeText);
    action->setToolTip(keys.isEmpty() ? tip : tr("%1 (%2)").arg(tip, keys));
    action->setStatusTip(tip);
    return action;
}

void MainWindow::createMenus()
{
    QMenu *file = menuBar()->addMenu(tr("&File"));
    QAction *open = addAction(file, tr("&Open Project Folder…"), QKeySequence::Open, tr("Open a project folder"));
    connect(open, &QAction::triggered, this, &MainWindow::chooseProject);
    m_recentMenu = file->addMenu(tr("Open &Recent"));
    file->addSeparator();
    QAction *newSession = addAction(file, tr("&New Session"), QKeySequence::New, tr("Start a new session"));
    connect(newSession, &QAction::triggered, m_controller, &SessionController::newSession);
    QAction *exportAction = addAction(file, tr("&Export Session…"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_E),
                                       tr("Save the open session as Markdown or as OpenCode's JSON"));
    connect(exportAction, &QAction::triggered, this, [this] { exportSession({}); });
    QAction *importSession = addAction(file, tr("&Import Session…"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_I),
                                       tr("Add a session from an OpenCode or qcode JSON export"));
    connect(importSession, &QAction::triggered, this, &MainWindow::chooseImport);
    file->addSeparator();
    const QKeySequence preferencesKey =
        QKeySequence::keyBindings(QKeySequence::Preferences).value(0, QKeySequence(Qt::CTRL | Qt::Key_Comma));
    QAction *preferences = addAction(file, tr("&Settings…"), preferencesKey,
                                     tr("Providers and keys, default model, theme, permissions"));
    preferences->setMenuRole(QAction::PreferencesRole);
    connect(preferences, &QAction::triggered, this, [this] { openSettings(); });
    file->addSeparator();
    // Some desktops define no standard Quit key; Ctrl+Q is everyone's.
    const QKeySequence quitKey = QKeySequence::keyBindings(QKeySequence::Quit).value(0, QKeySequence(Qt::CTRL | Qt::Key_Q));
    QAction *quit = addAction(file, tr("&Quit"), quitKey, tr("Quit qcode"));
    connect(quit, &QAction::triggered, qApp, &QApplication::closeAllWindows);

    QMenu *edit = menuBar()->addMenu(tr("&Edit"));
    QAction *copySession = addAction(edit, tr("Copy Session as &Markdown"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_C),
                                     tr("Copy the whole conversation as Markdown"));
    connect(copySession, &QAction::triggered, this, &MainWindow::copySessionAsMarkdown);
    QAction *find = addAction(edit, tr("&Find Session"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_F),
                              tr("Search the sessions by title"));
    connect(find, &QAction::triggered, this, [this] {
        m_sidebar->searchField()->setFocus();
        m_sidebar->searchField()->selectAll();
    });

    QMenu *session = menuBar()->addMenu(tr("&Session"));
    m_stop = addAction(session, tr("&Stop"), QKeySequence(Qt::Key_Escape), tr("Stop the running turn"));
    m_stop->setShortcutContext(Qt::WindowShortcut);
    connect(m_stop, &QAction::triggered, m_controller, &SessionController::abort);
    QAction *compact = addAction(session, tr("&Compact"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_K),
                                 tr("Summarize the conversation so far to free the model's context"));
    connect(compact, &QAction::triggered, m_controller, &SessionController::compact);
    session->addSeparator();
    QAction *undo = addAction(session, tr("&Undo Last Prompt"), QKeySequence(Qt::CTRL | Qt::ALT | Qt::Key_Z),
                              tr("Take back the last prompt and the file changes it made"));
    connect(undo, &QAction::triggered, m_controller, &SessionController::undo);
    QAction *redo = addAction(session, tr("&Redo"), QKeySequence(Qt::CTRL | Qt::ALT | Qt::SHIFT | Qt::Key_Z),
                              tr("Bring back what the last undo took back"));
    connect(redo, &QAction::triggered, m_controller, &SessionController::redo);
    session->addSeparator();
    QAction *rename = addAction(session, tr("Re&name"), QKeySequence(Qt::Key_F2), tr("Rename the open session"));
    connect(rename, &QAction::triggered, this, [this] { m_sidebar->rename(m_controller->currentSession()); });
    QAction *fork = addAction(session, tr("&Fork"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_D),
                              tr("A copy of the open session, to try another way"));
    connect(fork, &QAction::triggered, this, [this] { m_controller->fork(m_controller->currentSession()); });
    QAction *remove = addAction(session, tr("&Delete…"), QKeySequence(Qt::CTRL | Qt::Key_Delete),
                                tr("Delete the open session"));
    connect(remove, &QAction::triggered, this, [this] { m_sidebar->confirmDelete(m_controller->currentSession()); });
    m_sessionActions = {exportAction, copySession, compact, undo, redo, rename, fork, remove};

    QMenu *view = menuBar()->addMenu(tr("&View"));
    QAction *latest = addAction(view, tr("Jump to &Latest"), QKeySequence(Qt::CTRL | Qt::Key_End),
                                tr("Scroll to the newest message"));
    connect(latest, &QAction::triggered, this, [this] { m_pane->chatView()->scrollToBottom(); });
    QAction *sidebar = addAction(view, tr("Show &Sessions"), QKeySequence(Qt::CTRL | Qt::Key_B),
                                 tr("Show or hide the list of sessions"));
    sidebar->setCheckable(true);
    sidebar->setChecked(true);
    connect(sidebar, &QAction::toggled, m_sidebar, &QWidget::setVisible);

    rebuildRecentMenu();
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
    context.secrets = m_secrets.get();
    context.projectID = m_controller->projectID();
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
    setWindowTitle(tr("%1 — qcode").arg(info.fileName()));
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
    m_stop->setEnabled(busy);
    const std::optional<SessionStatus> status = m_controller->status(current);
    if (!status)
        m_statusLabel->setText(open ? tr("Ready") : QString());
    else if (status->type == SessionStatus::Type::Retry)
        m_statusLabel->setText(tr("Waiting to retry"));
    else
        m_statusLabel->setText(tr("Working…"));
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
        const Session *session = m_controller->sessions()->session(sessionID);
        QString name = session ? session->title : sessionID;
        name.replace(QRegularExpression(u"[^\\w .-]+"_s), u"-"_s);
        auto *dialog = new QFileDialog(this, tr("Export Session"), QDir(m_controller->projectDirectory()).filePath(name + u".md"_s));
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

void MainWindow::closeEvent(QCloseEvent *event)
{
    QSettings settings;
    settings.setValue(GeometryKey, saveGeometry());
    settings.setValue(StateKey, saveState());
    settings.setValue(SplitterKey, m_splitter->saveState());
    event->accept();
}

} // namespace qcode
