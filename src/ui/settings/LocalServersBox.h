#pragma once

#include <QGroupBox>
#include <QList>

#include "engine/config/LocalServer.h"

class QListWidget;
class QProgressBar;
class QPushButton;

namespace qcode {

class InlineMessage;
class LocalServerDetector;

// The model servers running on this machine (Ollama, LM Studio,
// llama.cpp), found in the background: a spinner while the probes run,
// then what answered and with how many models.
class LocalServersBox : public QGroupBox
{
    Q_OBJECT

public:
    LocalServersBox(const QList<LocalServer> &probes, QWidget *parent = nullptr);

    void detect();
    bool isDetecting() const { return m_detecting; }
    const QList<LocalServer> &servers() const { return m_servers; }

Q_SIGNALS:
    void serversFound(const QList<qcode::LocalServer> &servers);
    // The person wants this server as a custom provider, to edit it.
    void useServer(const qcode::LocalServer &server);

protected:
    void changeEvent(QEvent *event) override;

private:
    void retranslateUi();
    void showServers(const QList<LocalServer> &servers);
    // The search under way, or what it found, in words.
    void describeSearch();

    LocalServerDetector *m_detector = nullptr;
    QList<LocalServer> m_probes;
    QList<LocalServer> m_servers;
    QProgressBar *m_spinner = nullptr;
    QListWidget *m_list = nullptr;
    InlineMessage *m_message = nullptr;
    QPushButton *m_rescan = nullptr;
    bool m_detecting = false;
    bool m_searched = false; // a search has finished
};

} // namespace qcode
