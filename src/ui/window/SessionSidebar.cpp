#include "SessionSidebar.h"

#include <QAction>
#include <QEvent>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMessageBox>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QTimer>
#include <QToolButton>
#include <QTreeView>
#include <QVBoxLayout>

#include "SessionFilter.h"
#include "SessionItemDelegate.h"
#include "model/SessionTreeModel.h"
#include "ui/support/FocusRing.h"

using namespace Qt::StringLiterals;

namespace qcode {

SessionSidebar::SessionSidebar(SessionTreeModel *model, QWidget *parent) : QWidget(parent), m_model(model)
{
    setObjectName(u"sessionSidebar"_s);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 6, 0, 6);
    layout->setSpacing(6);

    auto *top = new QHBoxLayout;
    m_search = new QLineEdit(this);
    m_search->setObjectName(u"sessionSearch"_s);
    m_search->setClearButtonEnabled(true);
    top->addWidget(m_search, 1);
    m_new = new QToolButton(this);
    m_new->setObjectName(u"newSessionButton"_s);
    connect(m_new, &QToolButton::clicked, this, &SessionSidebar::newSessionRequested);
    top->addWidget(m_new);
    layout->addLayout(top);

    m_proxy = new SessionFilter(this);
    m_proxy->setSourceModel(m_model);
    m_proxy->setRecursiveFilteringEnabled(true);
    m_searchPause = new QTimer(this);
    m_searchPause->setSingleShot(true);
    m_searchPause->setInterval(250);
    connect(m_searchPause, &QTimer::timeout, this, [this] {
        if (!m_proxy->search().isEmpty())
            Q_EMIT contentSearchRequested(m_proxy->search());
    });
    connect(m_search, &QLineEdit::textChanged, this, &SessionSidebar::searchChanged);
    m_search->installEventFilter(this);

    m_view = new QTreeView(this);
    m_view->setObjectName(u"sessionList"_s);
    m_view->setModel(m_proxy);
    m_view->setHeaderHidden(true);
    m_delegate = new SessionItemDelegate(m_view);
    m_view->setItemDelegate(m_delegate);
    m_view->setEditTriggers(QAbstractItemView::EditKeyPressed);
    m_view->setSelectionMode(QAbstractItemView::SingleSelection);
    m_view->setContextMenuPolicy(Qt::CustomContextMenu);
    m_view->setTextElideMode(Qt::ElideRight);
    m_view->setAnimated(true);
    layout->addWidget(m_view, 1);
    m_noMatch = new QLabel(this);
    m_noMatch->setObjectName(u"noSessionsMatch"_s);
    m_noMatch->setAlignment(Qt::AlignHCenter | Qt::AlignTop);
    m_noMatch->setEnabled(false); // dimmed in every palette
    m_noMatch->hide();
    layout->addWidget(m_noMatch);

    connect(m_view, &QTreeView::activated, this, [this](const QModelIndex &index) {
        if (const QString id = idAt(index); !id.isEmpty())
            Q_EMIT sessionActivated(id);
    });
    connect(m_view, &QTreeView::clicked, this, [this](const QModelIndex &index) {
        if (const QString id = idAt(index); !id.isEmpty())
            Q_EMIT sessionActivated(id);
    });
    connect(m_view, &QTreeView::customContextMenuRequested, this, &SessionSidebar::showMenu);

    m_delete = new QAction(m_view);
    m_delete->setShortcut(QKeySequence::Delete);
    m_delete->setShortcutContext(Qt::WidgetShortcut);
    connect(m_delete, &QAction::triggered, this, [this] {
        if (const QString id = idAt(m_view->currentIndex()); !id.isEmpty())
            confirmDelete(id);
    });
    m_view->addAction(m_delete);
    // An empty list, or one whose current row is off screen, shows no focus of its own.
    new FocusRing(m_view);

    m_clockTick = new QTimer(this);
    m_clockTick->setInterval(60 * 1000);
    connect(m_clockTick, &QTimer::timeout, m_view->viewport(), qOverload<>(&QWidget::update));
    m_clockTick->start();

    // A new child session of the open one shows up expanded.
    connect(m_model, &QAbstractItemModel::rowsInserted, this, [this](const QModelIndex &parent) {
        if (parent.isValid())
            m_view->expand(m_proxy->mapFromSource(parent));
    });
    retranslateUi();
}

void SessionSidebar::retranslateUi()
{
    m_noMatch->setText(tr("No sessions match"));
    m_search->setPlaceholderText(tr("Search sessions"));
    m_search->setToolTip(tr("Find sessions by title or by what was said in them (%1); Esc clears")
                             .arg(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_F).toString(QKeySequence::NativeText)));
    m_new->setText(tr("New"));
    m_new->setToolTip(tr("Start a new session (%1)").arg(QKeySequence(QKeySequence::New).toString(QKeySequence::NativeText)));
    m_delete->setText(tr("Delete Session"));
    fillDeleteQuestion();
}

void SessionSidebar::changeEvent(QEvent *event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::LanguageChange)
        retranslateUi();
}

void SessionSidebar::searchChanged(const QString &text)
{
    m_proxy->setSearch(text);
    m_searchPause->start();
    afterFiltering();
}

void SessionSidebar::setContentMatches(const QString &text, const QStringList &sessionIDs)
{
    m_proxy->setContentMatches(text, sessionIDs);
    afterFiltering();
}

// Matches inside collapsed parents show; the open session stays
// highlighted whenever it is listed; an empty result says so.
void SessionSidebar::afterFiltering()
{
    if (!m_proxy->search().isEmpty())
        m_view->expandAll();
    m_noMatch->setVisible(!m_proxy->search().isEmpty() && m_proxy->rowCount() == 0);
    setCurrentSession(m_current);
}

bool SessionSidebar::eventFilter(QObject *watched, QEvent *event)
{
    // Esc in the search field clears it (and the list shows every session).
    const bool escape = (event->type() == QEvent::KeyPress || event->type() == QEvent::ShortcutOverride)
                        && static_cast<QKeyEvent *>(event)->key() == Qt::Key_Escape;
    if (watched == m_search && escape && !m_search->text().isEmpty()) {
        // Here Esc is the field's, not the window's Stop.
        event->accept();
        if (event->type() == QEvent::KeyPress)
            m_search->clear();
        return true;
    }
    return QWidget::eventFilter(watched, event);
}

void SessionSidebar::setCurrentSession(const QString &sessionID)
{
    m_current = sessionID;
    const QModelIndex index = proxyIndexOf(sessionID);
    if (!index.isValid()) {
        m_view->clearSelection();
        return;
    }
    for (QModelIndex parent = index.parent(); parent.isValid(); parent = parent.parent())
        m_view->expand(parent);
    m_view->setCurrentIndex(index);
    m_view->scrollTo(index);
}

void SessionSidebar::rename(const QString &sessionID)
{
    const QModelIndex index = proxyIndexOf(sessionID);
    if (!index.isValid())
        return;
    m_view->setCurrentIndex(index);
    m_view->edit(index);
}

void SessionSidebar::confirmDelete(const QString &sessionID)
{
    if (!m_model->session(sessionID))
        return;
    auto *box = new QMessageBox(QMessageBox::Warning, QString(), QString(), QMessageBox::NoButton, window());
    QPushButton *yes = box->addButton(QString(), QMessageBox::DestructiveRole);
    box->addButton(QMessageBox::Cancel);
    box->setDefaultButton(QMessageBox::Cancel);
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->setWindowModality(Qt::WindowModal);
    connect(box, &QMessageBox::buttonClicked, this, [this, yes, sessionID](QAbstractButton *clicked) {
        if (clicked == yes)
            Q_EMIT deleteConfirmed(sessionID);
    });
    m_deleteQuestion = box;
    m_deleteID = sessionID;
    fillDeleteQuestion();
    box->open();
}

void SessionSidebar::fillDeleteQuestion()
{
    const Session *session = m_model->session(m_deleteID);
    if (!m_deleteQuestion || !session)
        return;
    const int children = int(m_model->descendants(m_deleteID).size());
    m_deleteQuestion->setWindowTitle(tr("Delete Session"));
    m_deleteQuestion->setText(tr("Delete “%1”?").arg(session->title));
    m_deleteQuestion->setInformativeText(
        children > 0 ? tr("Its messages and its %n subagent session(s) are deleted too. This cannot be undone.",
                          nullptr, children)
                     : tr("Its messages are deleted too. This cannot be undone."));
    for (QAbstractButton *button : m_deleteQuestion->buttons()) {
        if (m_deleteQuestion->buttonRole(button) == QMessageBox::DestructiveRole)
            button->setText(tr("Delete"));
    }
}

QString SessionSidebar::idAt(const QModelIndex &proxyIndex) const
{
    return proxyIndex.data(SessionTreeModel::IdRole).toString();
}

QModelIndex SessionSidebar::proxyIndexOf(const QString &sessionID) const
{
    return m_proxy->mapFromSource(m_model->indexOf(sessionID));
}

void SessionSidebar::showMenu(const QPoint &position)
{
    const QString id = idAt(m_view->indexAt(position));
    if (id.isEmpty())
        return;
    auto *menu = new QMenu(this);
    menu->setAttribute(Qt::WA_DeleteOnClose);
    QAction *open = menu->addAction(tr("&Open"));
    connect(open, &QAction::triggered, this, [this, id] { Q_EMIT sessionActivated(id); });
    QAction *rename = menu->addAction(tr("&Rename"));
    rename->setShortcut(QKeySequence(Qt::Key_F2));
    connect(rename, &QAction::triggered, this, [this, id] { this->rename(id); });
    QAction *fork = menu->addAction(tr("&Fork"));
    fork->setToolTip(tr("A copy of the whole session, to try another way"));
    connect(fork, &QAction::triggered, this, [this, id] { Q_EMIT forkRequested(id); });
    menu->addSeparator();
    QAction *remove = menu->addAction(tr("&Delete…"));
    remove->setShortcut(QKeySequence::Delete);
    connect(remove, &QAction::triggered, this, [this, id] { confirmDelete(id); });
    menu->popup(m_view->viewport()->mapToGlobal(position));
}

} // namespace qcode
