#include "LocalServersBox.h"

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
    : QGroupBox(tr("Servers on this computer"), parent), m_probes(probes)
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
    m_list->setToolTip(tr("Double-click a server to edit it as a custom provider."));

    m_message = new InlineMessage(this);
    m_message->setObjectName(u"localServersMessage"_s);

    m_rescan = new QPushButton(tr("Search Again"), this);
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
}

void LocalServersBox::detect()
{
    if (m_detecting)
        return;
    m_detecting = true;
    m_rescan->setEnabled(false);
    m_spinner->setVisible(true);
    QStringList names;
    for (const LocalServer &probe : std::as_const(m_probes))
        names.append(probe.name);
    m_message->showInfo(names.isEmpty() ? tr("Looking for model servers…")
                                        : tr("Looking for %1…").arg(QLocale().createSeparatedList(names)));
    m_detector->start();
}

void LocalServersBox::showServers(const QList<LocalServer> &servers)
{
    m_detecting = false;
    m_servers = servers;
    m_spinner->setVisible(false);
    m_rescan->setEnabled(true);
    m_list->clear();
    for (const LocalServer &server : servers) {
        auto *item = new QListWidgetItem(tr("%1 at %2 — %n model(s)", nullptr, int(server.models.size()))
                                             .arg(server.name, server.serverUrl.toString()),
                                         m_list);
        item->setToolTip(server.models.join(u", "_s));
    }
    m_list->setVisible(!servers.isEmpty());
    if (servers.isEmpty())
        m_message->showInfo(tr("No model server answered on this computer. Start Ollama, LM Studio or llama.cpp "
                               "and search again, or add any OpenAI-compatible server below."));
    else
        m_message->showSuccess(tr("qcode offers their models without a key."));
    Q_EMIT serversFound(servers);
}

} // namespace qcode
