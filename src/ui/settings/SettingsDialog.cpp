#include "SettingsDialog.h"

#include <QDialogButtonBox>
#include <QDesktopServices>
#include <QDir>
#include <QFileInfo>
#include <QUrl>
#include <QEvent>
#include <QHBoxLayout>
#include <QHash>
#include <QLabel>
#include <QListWidget>
#include <QNetworkAccessManager>
#include <QStackedWidget>
#include <QVBoxLayout>

#include <algorithm>

#include "DataPage.h"
#include "GeneralPage.h"
#include "SettingsModelEntry.h"
#include "PermissionsPage.h"
#include "ProvidersPage.h"
#include "engine/config/UserConfigWriter.h"

using namespace Qt::StringLiterals;

namespace qcode {

SettingsDialog::SettingsDialog(SettingsContext context, QWidget *parent)
    : QDialog(parent), m_context(std::move(context)), m_network(new QNetworkAccessManager(this))
{
    setObjectName(u"settingsDialog"_s);

    m_list = new QListWidget(this);
    m_list->setObjectName(u"pageList"_s);
    m_list->setSpacing(2);
    m_pages = new QStackedWidget(this);
    m_pages->setObjectName(u"pages"_s);

    m_providers = new ProvidersPage(m_context, m_network, this);
    m_general = new GeneralPage(m_context, this);
    m_permissions = new PermissionsPage(m_context, this);
    m_data = new DataPage(m_context, this);
    addPage(u"providers"_s, m_providers);
    addPage(u"general"_s, m_general);
    addPage(u"permissions"_s, m_permissions);
    addPage(u"data"_s, m_data);

    m_configNote = new QLabel(this);
    m_configNote->setObjectName(u"configFileNote"_s);
    m_configNote->setWordWrap(true);
    m_configNote->setTextFormat(Qt::RichText);
    m_configNote->setTextInteractionFlags(Qt::LinksAccessibleByMouse | Qt::LinksAccessibleByKeyboard);
    // The file itself, shown in the file manager: its folder opened.
    connect(m_configNote, &QLabel::linkActivated, this, [this] {
        const QString file = UserConfigWriter(m_context.configDirectory).filePath();
        const QFileInfo info(file);
        QDesktopServices::openUrl(QUrl::fromLocalFile(info.exists() ? info.absolutePath() : m_context.configDirectory));
    });
    QFont small = m_configNote->font();
    small.setPointSizeF(small.pointSizeF() * 0.9);
    m_configNote->setFont(small);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);

    auto *right = new QVBoxLayout;
    right->addWidget(m_pages, 1);
    right->addWidget(m_configNote);
    auto *body = new QHBoxLayout;
    body->addWidget(m_list);
    body->addLayout(right, 1);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(body, 1);
    layout->addWidget(buttons);
    retranslateUi();
    resize(860, 640);

    connect(m_list, &QListWidget::currentRowChanged, m_pages, &QStackedWidget::setCurrentIndex);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_providers, &ProvidersPage::configChanged, this, [this](const Config &config) {
        m_context.config = config;
        updateModelEntries();
    });
    connect(m_providers, &ProvidersPage::localServersFound, this, [this](const QList<LocalServer> &servers) {
        m_localServers = servers;
        updateModelEntries();
    });
    updateModelEntries();
    m_list->setCurrentRow(0);
    m_providers->detectLocalServers();
}

SettingsDialog::~SettingsDialog() = default;

void SettingsDialog::addPage(const QString &name, QWidget *page)
{
    page->setObjectName(name);
    auto *item = new QListWidgetItem(m_list);
    item->setData(Qt::UserRole, name);
    m_pages->addWidget(page);
}

void SettingsDialog::retranslateUi()
{
    setWindowTitle(tr("Settings"));
    const QHash<QString, QString> titles{
        {u"providers"_s, tr("Providers")},
        {u"general"_s, tr("General")},
        {u"permissions"_s, tr("Permissions")},
        {u"data"_s, tr("Data")},
    };
    int widest = 0;
    for (int i = 0; i < m_list->count(); ++i) {
        QListWidgetItem *item = m_list->item(i);
        item->setText(titles.value(item->data(Qt::UserRole).toString()));
        item->setSizeHint(QSize(0, 32));
        widest = std::max(widest, m_list->fontMetrics().horizontalAdvance(item->text()));
    }
    // As wide as the longest page name in this language, and never narrower than a comfortable column.
    m_list->setFixedWidth(std::max(170, widest + 2 * (m_list->frameWidth() + m_list->spacing()) + 24));
    m_configNote->setText(tr("Providers, models and permissions are saved in qcode's config file. "
                             "<a href=\"config\">Show config file</a>"));
    m_configNote->setToolTip(QDir::toNativeSeparators(UserConfigWriter(m_context.configDirectory).filePath()));
}

void SettingsDialog::changeEvent(QEvent *event)
{
    QDialog::changeEvent(event);
    if (event->type() == QEvent::LanguageChange)
        retranslateUi();
}

void SettingsDialog::showPage(const QString &name)
{
    for (int i = 0; i < m_list->count(); ++i) {
        if (m_list->item(i)->data(Qt::UserRole).toString() == name) {
            m_list->setCurrentRow(i);
            return;
        }
    }
}

QString SettingsDialog::currentPage() const
{
    const QListWidgetItem *item = m_list->currentItem();
    return item ? item->data(Qt::UserRole).toString() : QString();
}

void SettingsDialog::updateModelEntries()
{
    m_general->setModelEntries(SettingsModelEntry::list(m_context.catalogue, m_context.config, m_localServers));
}

} // namespace qcode
