#include "SessionSidebar.h"

#include <QAction>
#include <QEvent>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QKeyEvent>
#include <QLineEdit>
#include <QMenu>
#include <QMessageBox>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QToolButton>
#include <QTreeView>
#include <QVBoxLayout>

#include "SessionItemDelegate.h"
#include "model/SessionTreeModel.h"

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

    m_proxy = new QSortFilterProxyModel(this);
    m_proxy->setSourceModel(m_model);
    m_proxy->setRecursiveFilteringEnabled(true);
    m_proxy->setFilterCaseSensitivity(Qt::CaseInsensitive);
    m_proxy->setFilterRole(SessionTreeModel::TitleRole);
    connect(m_search, &QLineEdit::textChanged, m_proxy, &QSortFilterProxyModel::setFilterFixedString);
    // While searching, matches inside collapsed parents must show.
    connect(m_search, &QLineEdit::textChanged, this, [this](const QString &text) {
        if (!text.isEmpty())
            m_view->expandAll();
    });

    m_view = new QTreeView(this);
    m_view->setObjectName(u"sessionList"_s);
    m_view->setModel(m_proxy);
    m_view->setHeaderHidden(true);
    m_view->setItemDelegate(new SessionItemDelegate(m_view));
    m_view->setEditTriggers(QAbstractItemView::EditKeyPressed);
    m_view->setSelectionMode(QAbstractItemView::SingleSelection);
    m_view->setContextMenuPolicy(Qt::CustomContextMenu);
    m_view->setTextElideMode(Qt::ElideRight);
    m_view->setAnimated(true);
    layout->addWidget(m_view, 1);

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

    // A new child session of the open one shows up expanded.
    connect(m_model, &QAbstractItemModel::rowsInserted, this, [this](const QModelIndex &parent) {
        if (parent.isValid())
            m_view->expand(m_proxy->mapFromSource(parent));
    });
    retranslateUi();
}

void SessionSidebar::retranslateUi()
{
    m_search->setPlaceholderText(tr("Search sessions"));
    m_search->setToolTip(tr("Filter the sessions by title (%1)")
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
