#include "SettingsDialog.h"

#include <QDialogButtonBox>
#include <QDir>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QNetworkAccessManager>
#include <QStackedWidget>
#include <QVBoxLayout>

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
    setWindowTitle(tr("Settings"));
    setObjectName(u"settingsDialog"_s);

    m_list = new QListWidget(this);
    m_list->setObjectName(u"pageList"_s);
    m_list->setFixedWidth(170);
    m_list->setSpacing(2);
    m_pages = new QStackedWidget(this);
    m_pages->setObjectName(u"pages"_s);

    m_providers = new ProvidersPage(m_context, m_network, this);
    m_general = new GeneralPage(m_context, this);
    m_permissions = new PermissionsPage(m_context, this);
    m_data = new DataPage(m_context, this);
    addPage(u"providers"_s, tr("Providers"), m_providers);
    addPage(u"general"_s, tr("General"), m_general);
    addPage(u"permissions"_s, tr("Permissions"), m_permissions);
    addPage(u"data"_s, tr("Data"), m_data);

    auto *where = new QLabel(tr("Providers, models and permissions are saved to %1; qcode reads them when it starts.")
                                 .arg(QDir::toNativeSeparators(UserConfigWriter(m_context.configDirectory).filePath())),
                             this);
    where->setObjectName(u"configFileNote"_s);
    where->setWordWrap(true);
    where->setTextInteractionFlags(Qt::TextSelectableByMouse);
    QFont small = where->font();
    small.setPointSizeF(small.pointSizeF() * 0.9);
    where->setFont(small);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);

    auto *right = new QVBoxLayout;
    right->addWidget(m_pages, 1);
    right->addWidget(where);
    auto *body = new QHBoxLayout;
    body->addWidget(m_list);
    body->addLayout(right, 1);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(body, 1);
    layout->addWidget(buttons);
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

void SettingsDialog::addPage(const QString &name, const QString &title, QWidget *page)
{
    page->setObjectName(name);
    auto *item = new QListWidgetItem(title, m_list);
    item->setData(Qt::UserRole, name);
    item->setSizeHint(QSize(0, 32));
    m_pages->addWidget(page);
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
