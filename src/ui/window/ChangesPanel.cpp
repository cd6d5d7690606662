#include "ChangesPanel.h"

#include <QDesktopServices>
#include <QDir>
#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QSplitter>
#include <QStackedWidget>
#include <QUrl>
#include <QVBoxLayout>

#include "ui/chat/tool/DiffView.h"

using namespace Qt::StringLiterals;

namespace qcode {

ChangesPanel::ChangesPanel(QWidget *parent) : QFrame(parent)
{
    setObjectName(u"changesPanel"_s);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(8, 8, 8, 8);
    layout->setSpacing(6);

    auto *header = new QHBoxLayout;
    m_title = new QLabel(this);
    QFont bold = m_title->font();
    bold.setBold(true);
    m_title->setFont(bold);
    m_summary = new QLabel(this);
    m_summary->setObjectName(u"changesSummary"_s);
    m_revertAll = new QPushButton(this);
    m_revertAll->setObjectName(u"revertAllButton"_s);
    header->addWidget(m_title);
    header->addWidget(m_summary, 1);
    header->addWidget(m_revertAll);
    layout->addLayout(header);

    m_pages = new QStackedWidget(this);
    m_empty = new QLabel(m_pages);
    m_empty->setObjectName(u"changesEmpty"_s);
    m_empty->setAlignment(Qt::AlignCenter);
    m_empty->setWordWrap(true);
    m_pages->addWidget(m_empty);

    auto *split = new QSplitter(Qt::Vertical, m_pages);
    m_list = new QListWidget(split);
    m_list->setObjectName(u"changesList"_s);
    m_list->setSelectionMode(QAbstractItemView::SingleSelection);
    auto *detail = new QWidget(split);
    auto *detailLayout = new QVBoxLayout(detail);
    detailLayout->setContentsMargins(0, 0, 0, 0);
    detailLayout->setSpacing(4);
    auto *fileRow = new QHBoxLayout;
    m_fileTitle = new QLabel(detail);
    m_fileTitle->setTextFormat(Qt::PlainText);
    m_fileTitle->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    m_open = new QPushButton(detail);
    m_open->setObjectName(u"openFileButton"_s);
    m_revertFile = new QPushButton(detail);
    m_revertFile->setObjectName(u"revertFileButton"_s);
    fileRow->addWidget(m_fileTitle, 1);
    fileRow->addWidget(m_open);
    fileRow->addWidget(m_revertFile);
    detailLayout->addLayout(fileRow);
    m_binary = new QLabel(detail);
    m_binary->hide();
    detailLayout->addWidget(m_binary);
    m_diff = new DiffView(detail);
    m_diff->setObjectName(u"changesDiff"_s);
    // Here the diff has the panel's height, not a card's few rows.
    m_diff->setMaximumHeight(QWIDGETSIZE_MAX);
    m_diff->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
    detailLayout->addWidget(m_diff, 1);
    split->addWidget(m_list);
    split->addWidget(detail);
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 3);
    split->setChildrenCollapsible(false);
    m_pages->addWidget(split);
    layout->addWidget(m_pages, 1);

    connect(m_list, &QListWidget::currentRowChanged, this, &ChangesPanel::showSelected);
    connect(m_open, &QPushButton::clicked, this, &ChangesPanel::openSelected);
    connect(m_list, &QListWidget::itemActivated, this, &ChangesPanel::openSelected);
    connect(m_revertFile, &QPushButton::clicked, this, [this] {
        if (const SnapshotFilePatch *change = selected())
            Q_EMIT revertFileRequested(change->file);
    });
    connect(m_revertAll, &QPushButton::clicked, this, &ChangesPanel::revertAllRequested);
    retranslateUi();
    setChanges({});
}

void ChangesPanel::setWorkTree(const QString &directory)
{
    m_workTree = directory;
    m_diff->setProjectDirectory(directory);
}

void ChangesPanel::setChanges(const QList<SnapshotFilePatch> &changes)
{
    const QString keep = m_wanted.isEmpty() ? currentFile() : m_wanted;
    m_changes = changes;
    {
        const QSignalBlocker quiet(m_list);
        m_list->clear();
        for (const SnapshotFilePatch &change : changes) {
            auto *item = new QListWidgetItem(m_list);
            item->setData(FileRole, change.file);
            item->setData(AdditionsRole, change.additions);
            item->setData(DeletionsRole, change.deletions);
            item->setData(StatusRole, change.status);
        }
    }
    retranslateUi(); // the items' words
    int row = -1;
    for (int i = 0; i < changes.size(); ++i) {
        if (changes.at(i).file == keep)
            row = i;
    }
    if (row >= 0 && keep == m_wanted)
        m_wanted.clear();
    // The file shown goes on being shown; otherwise the first one.
    m_list->setCurrentRow(row >= 0 ? row : changes.isEmpty() ? -1 : 0);
    showSelected();
}

void ChangesPanel::selectFile(const QString &file)
{
    for (int i = 0; i < m_changes.size(); ++i) {
        if (m_changes.at(i).file == file) {
            m_wanted.clear();
            m_list->setCurrentRow(i);
            return;
        }
    }
    m_wanted = file;
}

QString ChangesPanel::currentFile() const
{
    const SnapshotFilePatch *change = selected();
    return change ? change->file : QString();
}

QStringList ChangesPanel::files() const
{
    QStringList names;
    for (const SnapshotFilePatch &change : m_changes)
        names.append(change.file);
    return names;
}

QString ChangesPanel::summaryText() const
{
    return m_summary->text();
}

const SnapshotFilePatch *ChangesPanel::selected() const
{
    const int row = m_list->currentRow();
    return row >= 0 && row < m_changes.size() ? &m_changes.at(row) : nullptr;
}

void ChangesPanel::showSelected()
{
    const SnapshotFilePatch *change = selected();
    m_open->setEnabled(change && change->status != u"deleted"_s);
    m_revertFile->setEnabled(change != nullptr);
    m_fileTitle->setText(change ? change->file : QString());
    m_binary->setVisible(change && change->binary);
    const QString diff = change ? change->patch : QString();
    if (m_diff->unifiedDiff() != diff)
        m_diff->setUnifiedDiff(diff);
}

void ChangesPanel::openSelected()
{
    const SnapshotFilePatch *change = selected();
    if (!change || change->status == u"deleted"_s)
        return;
    QDesktopServices::openUrl(QUrl::fromLocalFile(QDir(m_workTree).absoluteFilePath(change->file)));
}

void ChangesPanel::retranslateUi()
{
    m_title->setText(tr("Changes"));
    m_revertAll->setText(tr("Revert All"));
    m_revertAll->setToolTip(tr("Undo every prompt of the session and put all its files back (Redo brings them back)"));
    m_revertAll->setEnabled(!m_changes.isEmpty());
    m_open->setText(tr("Open"));
    m_open->setToolTip(tr("Open the file in its default application"));
    m_revertFile->setText(tr("Revert File"));
    m_revertFile->setToolTip(tr("Put this file back as it was before the session; this cannot be redone"));
    m_binary->setText(tr("A binary file: its change is not shown."));
    m_empty->setText(tr("The session has not changed any file yet."));
    qint64 additions = 0;
    qint64 deletions = 0;
    for (int row = 0; row < m_list->count(); ++row) {
        QListWidgetItem *item = m_list->item(row);
        const qint64 added = item->data(AdditionsRole).toLongLong();
        const qint64 removed = item->data(DeletionsRole).toLongLong();
        additions += added;
        deletions += removed;
        const QString status = item->data(StatusRole).toString();
        const bool created = status == u"added"_s;
        const bool deleted = status == u"deleted"_s;
        const QString counts = tr("+%1 −%2").arg(added).arg(removed);
        item->setText(tr("%1   %2").arg(item->data(FileRole).toString(), counts));
        item->setToolTip(created   ? tr("Created by the session")
                         : deleted ? tr("Deleted by the session")
                                   : tr("Changed by the session"));
    }
    m_summary->setText(m_changes.isEmpty() ? QString()
                                           : tr("%n file(s), +%1 −%2", nullptr, int(m_changes.size()))
                                                 .arg(additions)
                                                 .arg(deletions));
    m_pages->setCurrentIndex(m_changes.isEmpty() ? 0 : 1);
}

void ChangesPanel::changeEvent(QEvent *event)
{
    QFrame::changeEvent(event);
    if (event->type() == QEvent::LanguageChange)
        retranslateUi();
}

} // namespace qcode
