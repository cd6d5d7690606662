#pragma once

#include <QObject>
#include <QString>

class QLocalServer;
class QLocalSocket;

namespace qcode {

// One qcode window per user and data folder. The first GUI launch listens
// on a local socket; a later one hands its folder to it and exits, so
// "Open with qcode" from a file manager lands in the window already open.
// The socket's name comes from the user and the data folder, so a sandbox
// (QCODE_DATA_DIR) gets its own instance and two users never meet.
class SingleInstance : public QObject
{
    Q_OBJECT

public:
    enum class Role {
        Primary,    // listening: this process shows the window
        HandedOff,  // the running instance confirmed the request: exit
        Standalone, // a running instance did not answer: show a window, unlisted
    };
    Q_ENUM(Role)

    explicit SingleInstance(const QString &dataDirectory, QObject *parent = nullptr);
    ~SingleInstance() override;

    // The local socket name for `dataDirectory` and the current user: a path
    // under XDG_RUNTIME_DIR where there is one, else a bare name (the
    // system's temporary folder, or a named pipe on Windows).
    static QString serverName(const QString &dataDirectory);
    QString serverName() const { return m_name; }

    // Hands `folder` (absolute; empty only raises the window) to a running
    // instance, or becomes the running instance. Blocks for a few seconds
    // at most, so call it before the window exists.
    Role start(const QString &folder);

Q_SIGNALS:
    // A later launch asked for `folder` (empty: only to come forward).
    void activationRequested(const QString &folder);

private:
    enum class HandOff { Confirmed, NoServer, Unanswered };

    HandOff handOff(const QString &folder) const;
    bool listen();
    void acceptConnections();
    void readRequest(QLocalSocket *socket);

    QString m_name;
    QLocalServer *m_server = nullptr;
};

} // namespace qcode
