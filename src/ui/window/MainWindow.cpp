#include "MainWindow.h"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QListView>
#include <QMenu>
#include <QMenuBar>
#include <QPushButton>
#include <QSettings>
#include <QSplitter>
#include <QStackedWidget>
#include <QStatusBar>
#include <QVBoxLayout>

#include "model/SessionListModel.h"
#include "model/Store.h"

using namespace Qt::StringLiterals;

namespace qcode {
namespace {

constexpr int MaxRecentProjects = 10;
const QString RecentKey = u"projects/recent"_s;
const QString GeometryKey = u"window/geometry"_s;
const QString StateKey = u"window/state"_s;

} // namespace

MainWindow::MainWindow(Store *store, QWidget *parent) : QMainWindow(parent), m_store(store)
{
    setWindowTitle(tr("qcode"));
    m_sessions = new SessionListModel(this);

    m_pages = new QStackedWidget(this);
    m_pages->addWidget(createEmptyState());
    m_pages->addWidget(createProjectView());
    setCentralWidget(m_pages);

    QMenu *file = menuBar()->addMenu(tr("&File"));
    QAction *open = file->addAction(tr("&Open Project Folder…"), this, &MainWindow::chooseProject);
    open->setShortcut(QKeySequence::Open);
    open->setToolTip(tr("Open a project folder (%1)").arg(open->shortcut().toString(QKeySequence::NativeText)));
    m_recentMenu = file->addMenu(tr("Open &Recent"));
    file->addSeparator();
    QAction *quit = file->addAction(tr("&Quit"), qApp, &QApplication::closeAllWindows);
    quit->setShortcut(QKeySequence::Quit);

    rebuildRecentMenu();
    statusBar()->showMessage(tr("Database: %1").arg(QDir::toNativeSeparators(m_store->path())));

    QSettings settings;
    if (!restoreGeometry(settings.value(GeometryKey).toByteArray()))
        resize(1100, 760);
    restoreState(settings.value(StateKey).toByteArray());
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
    connect(button, &QPushButton::clicked, this, &MainWindow::chooseProject);
    layout->addWidget(title);
    layout->addWidget(hint);
    layout->addWidget(button, 0, Qt::AlignCenter);
    layout->addStretch();
    return page;
}

QWidget *MainWindow::createProjectView()
{
    auto *splitter = new QSplitter(this);
    splitter->setObjectName(u"projectSplitter"_s);
    m_sessionView = new QListView(splitter);
    m_sessionView->setObjectName(u"sessionList"_s);
    m_sessionView->setModel(m_sessions);
    m_projectHint = new QLabel(splitter);
    m_projectHint->setObjectName(u"projectHint"_s);
    m_projectHint->setAlignment(Qt::AlignCenter);
    m_projectHint->setWordWrap(true);
    splitter->setStretchFactor(1, 1);
    return splitter;
}

void MainWindow::chooseProject()
{
    const QString folder = QFileDialog::getExistingDirectory(this, tr("Open Project Folder"), m_projectDirectory);
    if (!folder.isEmpty())
        openProject(folder);
}

void MainWindow::openProject(const QString &directory)
{
    const QFileInfo info(directory);
    if (!info.isDir()) {
        statusBar()->showMessage(tr("%1 is not a folder.").arg(QDir::toNativeSeparators(directory)));
        return;
    }
    m_projectDirectory = QDir::cleanPath(info.absoluteFilePath());
    setWindowTitle(tr("%1 — qcode").arg(info.fileName()));

    QList<Session> sessions;
    QString projectID;
    auto project = m_store->projectForWorktree(m_projectDirectory);
    if (!project) {
        statusBar()->showMessage(project.error().message);
    } else if (project->has_value()) {
        projectID = (*project)->id;
        auto list = m_store->sessions(projectID);
        if (list)
            sessions = std::move(list).value();
        else
            statusBar()->showMessage(list.error().message);
    }
    m_sessions->setSessions(projectID, sessions);
    m_projectHint->setText(sessions.isEmpty()
                               ? tr("No sessions in %1 yet.").arg(QDir::toNativeSeparators(m_projectDirectory))
                               : tr("%n session(s) in %1.", nullptr, int(sessions.size()))
                                     .arg(QDir::toNativeSeparators(m_projectDirectory)));
    m_pages->setCurrentIndex(1);

    QSettings settings;
    QStringList recent = settings.value(RecentKey).toStringList();
    recent.removeAll(m_projectDirectory);
    recent.prepend(m_projectDirectory);
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

void MainWindow::closeEvent(QCloseEvent *event)
{
    QSettings settings;
    settings.setValue(GeometryKey, saveGeometry());
    settings.setValue(StateKey, saveState());
    event->accept();
}

} // namespace qcode
