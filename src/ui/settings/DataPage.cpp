#include "DataPage.h"

#include <QDesktopServices>
#include <QDir>
#include <QDirIterator>
#include <QEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QFutureWatcher>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QPushButton>
#include <QUrl>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

#include "AppSettings.h"
#include "InlineMessage.h"
#include "engine/config/DataPaths.h"
#include "ui/support/FormLabels.h"

using namespace Qt::StringLiterals;

namespace qcode {

namespace {

QLabel *pathLabel(const QString &path, QWidget *parent)
{
    auto *label = new QLabel(QDir::toNativeSeparators(path), parent);
    label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    label->setWordWrap(true);
    return label;
}

} // namespace

DataPage::DataPage(const SettingsContext &context, QWidget *parent)
    : QWidget(parent)
    , m_app(context.app)
    , m_current(QDir::cleanPath(context.dataDirectory.isEmpty() ? DataPaths::dataDirectory() : context.dataDirectory))
    , m_overriddenByEnvironment(!context.environment.value(u"QCODE_DATA_DIR"_s).isEmpty())
{
    auto *box = new QGroupBox(this);
    m_box = box;
    m_location = pathLabel(m_current, box);
    m_location->setObjectName(u"dataDirectoryLabel"_s);
    const QDir data(m_current);
    m_database = pathLabel(data.filePath(QFileInfo(DataPaths::databaseFile()).fileName()), box);
    m_toolOutput = pathLabel(data.filePath(u"tool-output"_s), box);
    m_snapshotSize = new QLabel(box);
    m_snapshotSize->setObjectName(u"snapshotSizeLabel"_s);

    m_open = new QPushButton(box);
    m_open->setObjectName(u"openDataFolderButton"_s);
    m_change = new QPushButton(box);
    m_change->setObjectName(u"changeDataFolderButton"_s);
    m_reset = new QPushButton(box);
    m_reset->setObjectName(u"defaultDataFolderButton"_s);
    m_message = new InlineMessage(box);
    m_message->setObjectName(u"dataMessage"_s);

    auto *buttons = new QHBoxLayout;
    buttons->addWidget(m_open);
    buttons->addWidget(m_change);
    buttons->addWidget(m_reset);
    buttons->addStretch();
    m_form = new QFormLayout(box);
    for (QLabel *field : {m_location, m_database, m_toolOutput, m_snapshotSize})
        addFormRow(m_form, field);
    m_form->addRow(buttons);
    m_form->addRow(m_message);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(box);
    layout->addStretch();

    connect(m_open, &QPushButton::clicked, this, &DataPage::openFolder);
    connect(m_change, &QPushButton::clicked, this, &DataPage::pickFolder);
    connect(m_reset, &QPushButton::clicked, this, [this] { chooseDirectory(QString()); });
    m_change->setEnabled(m_app != nullptr);
    retranslateUi();
    showPending();
    measureSnapshots();
}

void DataPage::retranslateUi()
{
    m_box->setTitle(tr("Data folder"));
    setFormLabel(m_form, m_location, tr("Location:"));
    setFormLabel(m_form, m_database, tr("Database:"));
    setFormLabel(m_form, m_toolOutput, tr("Saved tool output:"));
    setFormLabel(m_form, m_snapshotSize, tr("Snapshots:"));
    showSnapshotSize();
    m_open->setText(tr("Open Folder"));
    m_change->setText(tr("Change…"));
    m_reset->setText(tr("Use the Default"));
    // An error stays as it was said; the rest is the folders' state.
    if (m_message->kind() != InlineMessage::Kind::Error)
        showPending();
}

void DataPage::changeEvent(QEvent *event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::LanguageChange)
        retranslateUi();
}

void DataPage::showSnapshotSize()
{
    const QString snapshots = QDir(m_current).filePath(u"snapshot"_s);
    m_snapshotSize->setText(m_snapshotBytes ? tr("%1 in %2").arg(QLocale().formattedDataSize(*m_snapshotBytes),
                                                                 QDir::toNativeSeparators(snapshots))
                                            : tr("Measuring…"));
}

qint64 DataPage::folderSize(const QString &directory)
{
    qint64 total = 0;
    QDirIterator it(directory, QDir::Files | QDir::Hidden | QDir::NoSymLinks, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        it.next();
        total += it.fileInfo().size();
    }
    return total;
}

void DataPage::measureSnapshots()
{
    const QString snapshots = QDir(m_current).filePath(u"snapshot"_s);
    auto *watcher = new QFutureWatcher<qint64>(this);
    connect(watcher, &QFutureWatcher<qint64>::finished, this, [this, watcher] {
        watcher->deleteLater();
        m_snapshotBytes = watcher->result();
        showSnapshotSize();
    });
    // A snapshot store can hold many thousand files; the walk is not the
    // GUI thread's to make.
    watcher->setFuture(QtConcurrent::run(&DataPage::folderSize, snapshots));
}

void DataPage::openFolder()
{
    if (!QDir().mkpath(m_current)) {
        m_message->showError(tr("%1 does not exist and cannot be created.").arg(QDir::toNativeSeparators(m_current)));
        return;
    }
    if (!QDesktopServices::openUrl(QUrl::fromLocalFile(m_current)))
        m_message->showError(tr("No file manager opened %1.").arg(QDir::toNativeSeparators(m_current)));
}

void DataPage::pickFolder()
{
    // Not QFileDialog::getExistingDirectory: that spins a nested event loop.
    auto *dialog = new QFileDialog(this, tr("Choose the Data Folder"), m_current);
    dialog->setFileMode(QFileDialog::Directory);
    dialog->setOption(QFileDialog::ShowDirsOnly);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &QFileDialog::fileSelected, this, &DataPage::chooseDirectory);
    dialog->open();
}

void DataPage::chooseDirectory(const QString &directory)
{
    if (!m_app)
        return;
    if (!directory.isEmpty()) {
        const QFileInfo info(directory);
        if (!info.isAbsolute()) {
            m_message->showError(tr("Choose a full path for the data folder, not %1.").arg(directory));
            return;
        }
        if (info.exists() && !info.isDir()) {
            m_message->showError(tr("%1 is a file, not a folder.").arg(QDir::toNativeSeparators(directory)));
            return;
        }
    }
    m_app->setDataDirectory(directory);
    showPending();
}

void DataPage::showPending()
{
    m_reset->setEnabled(m_app && !m_app->dataDirectory().isEmpty());
    if (!m_app)
        return;
    const QString next = m_app->dataDirectory().isEmpty() ? QString() : QDir::cleanPath(m_app->dataDirectory());
    if (m_overriddenByEnvironment) {
        m_message->showInfo(tr("QCODE_DATA_DIR is set, so qcode uses that folder whatever is chosen here."));
    } else if (!next.isEmpty() && next != m_current) {
        m_message->showInfo(tr("From its next start qcode keeps its data in %1. What is in %2 stays there; move it "
                               "yourself to keep your sessions.")
                                .arg(QDir::toNativeSeparators(next), QDir::toNativeSeparators(m_current)));
    } else if (next.isEmpty() && m_current != QDir::cleanPath(DataPaths::dataDirectory())) {
        m_message->showInfo(tr("From its next start qcode keeps its data in the default folder, %1.")
                                .arg(QDir::toNativeSeparators(DataPaths::dataDirectory())));
    } else {
        m_message->dismiss();
    }
}

} // namespace qcode
