#include "LocalServersBox.h"

#include <QEvent>
#include <QHBoxLayout>
#include <QListWidget>
#include <QLocale>
#include <QProgressBar>
#include <QPushButton>
#include <QVBoxLayout>

#include "InlineMessage.h"
#include "engine/config/LocalServerDetector.h"

using namespace Qt::StringLiterals;

namespace qcode {

LocalServersBox::LocalServersBox(const QList<LocalServer> &probes, QWidget *parent)
    : QGroupBox(parent), m_probes(probes)
{
    m_detector = new LocalServerDetector(this);
    m_detector->setProbes(probes);

    m_spinner = new QProgressBar(this);
    m_spinner->setObjectName(u"localServersSpinner"_s);
    m_spinner->setRange(0, 0); // busy, with no end to show
    m_spinner->setTextVisible(false);
    m_spinner->setMaximumHeight(6);
    m_spinner->setVisible(false);

    m_list = new QListWidget(this);
    m_list->setObjectName(u"localServersList"_s);
    m_list->setMaximumHeight(90);
    m_list->setVisible(false);

    m_message = new InlineMessage(this);
    m_message->setObjectName(u"localServersMessage"_s);

    m_rescan = new QPushButton(this);
    m_rescan->setObjectName(u"rescanButton"_s);

    auto *row = new QHBoxLayout;
    row->addWidget(m_message, 1);
    row->addWidget(m_rescan, 0, Qt::AlignTop);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_spinner);
    layout->addWidget(m_list);
    layout->addLayout(row);

    connect(m_detector, &LocalServerDetector::finished, this, &LocalServersBox::showServers);
    connect(m_rescan, &QPushButton::clicked, this, &LocalServersBox::detect);
    connect(m_list, &QListWidget::itemActivated, this, [this](QListWidgetItem *item) {
        const int index = m_list->row(item);
        if (index >= 0 && index < m_servers.size())
            Q_EMIT useServer(m_servers.at(index));
    });
    retranslateUi();
}

void LocalServersBox::retranslateUi()
{
    setTitle(tr("Servers on this computer"));
    m_list->setToolTip(tr("Double-click a server to edit it as a custom provider."));
    m_rescan->setText(tr("Search Again"));
    describeSearch();
}

void LocalServersBox::changeEvent(QEvent *event)
{
    QGroupBox::changeEvent(event);
    if (event->type() == QEvent::LanguageChange)
        retranslateUi();
}

void LocalServersBox::detect()
{
    if (m_detecting)
        return;
    m_detecting = true;
    m_rescan->setEnabled(false);
    m_spinner->setVisible(true);
    describeSearch();
    m_detector->start();
}

void LocalServersBox::describeSearch()
{
    if (m_detecting) {
        QStringList names;
        for (const LocalServer &probe : std::as_const(m_probes))
            names.append(probe.name);
        m_message->showInfo(names.isEmpty() ? tr("Looking for model servers…")
                                            : tr("Looking for %1…").arg(QLocale().createSeparatedList(names)));
        return;
    }
    if (!m_searched)
        return;
    for (int i = 0; i < m_list->count() && i < m_servers.size(); ++i) {
        const LocalServer &server = m_servers.at(i);
        m_list->item(i)->setText(tr("%1 at %2 — %n model(s)", nullptr, int(server.models.size()))
                                     .arg(server.name, server.serverUrl.toString()));
    }
    if (m_servers.isEmpty())
        m_message->showInfo(tr("No model server answered on this computer. Start Ollama, LM Studio or llama.cpp "
                               "and search again, or add any OpenAI-compatible server below."));
    else
        m_message->showSuccess(tr("qcode offers their models without a key."));
}

void LocalServersBox::showServers(const QList<LocalServer> &servers)
{
    m_detecting = false;
    m_searched = true;
    m_servers = servers;
    m_spinner->setVisible(false);
    m_rescan->setEnabled(true);
    m_list->clear();
    for (const LocalServer &server : servers) {
        auto *item = new QListWidgetItem(m_list);
        item->setToolTip(server.models.join(u", "_s));
    }
    m_list->setVisible(!servers.isEmpty());
    describeSearch();
    Q_EMIT serversFound(servers);
}

} // namespace qcode
