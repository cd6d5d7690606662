#include "SingleInstance.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFileInfo>
#include <QLocalServer>
#include <QLocalSocket>
#include <QLockFile>
#include <QLoggingCategory>
#include <QTimer>

#include "InstanceMessage.h"

#ifdef Q_OS_UNIX
#include <unistd.h>
#endif

using namespace Qt::StringLiterals;

namespace qcode {
namespace {

Q_LOGGING_CATEGORY(lcInstance, "qcode.app.instance", QtInfoMsg)

// A listening server accepts at once; a refused or missing socket fails at
// once. The bound only matters for a server that is alive but stuck.
constexpr int ConnectTimeoutMs = 2000;
// The running instance answers after the window has taken the folder: a
// busy GUI thread, or one still opening its window, may need a while.
constexpr int AnswerTimeoutMs = 10000;
// A connection that has not sent a whole request by then is dropped, so a
// stray client cannot hold sockets open in the running instance. A launch
// writes its request as soon as it connects.
constexpr int RequestTimeoutMs = 5000;
// Two launches at once wait for each other's decision at most this long.
constexpr int DecisionLockTimeoutMs = 10000;

QString currentUser()
{
#ifdef Q_OS_UNIX
    return QString::number(::getuid());
#else
    return qEnvironmentVariable("USERDOMAIN") + u'\\' + qEnvironmentVariable("USERNAME");
#endif
}

QString normalizedDirectory(const QString &dataDirectory)
{
    // Not canonicalFilePath: the folder may not exist before the first
    // launch creates it, and the name must not change once it does.
    QString path = QDir::cleanPath(QFileInfo(dataDirectory).absoluteFilePath());
#ifdef Q_OS_WIN
    path = path.toLower();
#endif
    return path;
}

// Where the lock that serialises launches lives: beside the socket.
QString lockFile(const QString &serverName)
{
    const QString base = QDir::isAbsolutePath(serverName) ? serverName : QDir::temp().filePath(serverName);
    return base + u".lock"_s;
}

} // namespace

SingleInstance::SingleInstance(const QString &dataDirectory, QObject *parent)
    : QObject(parent), m_name(serverName(dataDirectory))
{
}

SingleInstance::~SingleInstance() = default;

QString SingleInstance::serverName(const QString &dataDirectory)
{
    const QByteArray identity = (currentUser() + u'\n' + normalizedDirectory(dataDirectory)).toUtf8();
    // Short enough for a Unix socket path (about 100 bytes) under any
    // reasonable runtime folder.
    const QString name = u"qcode-"_s
        + QString::fromLatin1(QCryptographicHash::hash(identity, QCryptographicHash::Sha256).toHex().left(24));
#ifdef Q_OS_UNIX
    // XDG_RUNTIME_DIR is the user's own (mode 0700) and emptied at logout,
    // so no one else can reach the socket and no crash outlives the session.
    const QString runtime = qEnvironmentVariable("XDG_RUNTIME_DIR");
    if (!runtime.isEmpty() && QDir::isAbsolutePath(runtime) && QFileInfo(runtime).isDir())
        return QDir(runtime).filePath(name);
#endif
    return name;
}

SingleInstance::Role SingleInstance::start(const QString &folder)
{
    // Two launches at the same moment would otherwise both find no server
    // and both listen, the second removing the first's socket.
    QLockFile decision(lockFile(m_name));
    if (!decision.tryLock(DecisionLockTimeoutMs))
        qCWarning(lcInstance) << "could not take" << lockFile(m_name) << "- deciding without it";

    switch (handOff(folder)) {
    case HandOff::Confirmed:
        qCDebug(lcInstance) << "handed" << folder << "to the running instance";
        return Role::HandedOff;
    case HandOff::Unanswered:
        qCWarning(lcInstance) << "the running instance at" << m_name << "did not answer; opening a window of its own";
        return Role::Standalone;
    case HandOff::NoServer:
        break;
    }
    return listen() ? Role::Primary : Role::Standalone;
}

SingleInstance::HandOff SingleInstance::handOff(const QString &folder) const
{
    QLocalSocket socket;
    socket.connectToServer(m_name);
    if (!socket.waitForConnected(ConnectTimeoutMs))
        return HandOff::NoServer;

    socket.write(InstanceMessage::encodeRequest(folder));
    if (!socket.waitForBytesWritten(AnswerTimeoutMs))
        return HandOff::Unanswered;
    QByteArray answer;
    while (!answer.contains('\n') && answer.size() < 64) {
        if (socket.bytesAvailable() == 0 && !socket.waitForReadyRead(AnswerTimeoutMs))
            break;
        answer += socket.readAll();
    }
    return answer == InstanceMessage::acknowledgement() ? HandOff::Confirmed : HandOff::Unanswered;
}

bool SingleInstance::listen()
{
    m_server = new QLocalServer(this);
    m_server->setSocketOptions(QLocalServer::UserAccessOption);
    connect(m_server, &QLocalServer::newConnection, this, &SingleInstance::acceptConnections);
    if (m_server->listen(m_name)) {
        qCDebug(lcInstance) << "listening at" << m_server->fullServerName();
        return true;
    }
    // Nobody answered on the name, and the lock keeps other launches out:
    // what is left there is a crashed instance's socket.
    if (m_server->serverError() == QAbstractSocket::AddressInUseError) {
        qCDebug(lcInstance) << "removing the stale socket" << m_name;
        QLocalServer::removeServer(m_name);
        if (m_server->listen(m_name)) {
            qCDebug(lcInstance) << "listening at" << m_server->fullServerName();
            return true;
        }
    }
    qCWarning(lcInstance) << "cannot listen at" << m_name << ":" << m_server->errorString()
                          << "- later launches will open windows of their own";
    delete m_server;
    m_server = nullptr;
    return false;
}

void SingleInstance::acceptConnections()
{
    while (QLocalSocket *socket = m_server->nextPendingConnection()) {
        connect(socket, &QLocalSocket::disconnected, socket, &QObject::deleteLater);
        connect(socket, &QLocalSocket::readyRead, this, [this, socket] { readRequest(socket); });
        QTimer::singleShot(RequestTimeoutMs, socket, [socket] {
            // An answered socket is closing by now, waiting only to be deleted.
            if (socket->state() != QLocalSocket::ConnectedState)
                return;
            qCWarning(lcInstance) << "dropped a connection that sent no request within" << RequestTimeoutMs << "ms";
            socket->abort();
        });
        // Data may have arrived with the connection itself.
        if (socket->bytesAvailable() > 0)
            readRequest(socket);
    }
}

void SingleInstance::readRequest(QLocalSocket *socket)
{
    if (socket->state() != QLocalSocket::ConnectedState)
        return;
    const qsizetype newline = socket->peek(InstanceMessage::MaxRequestSize).indexOf('\n');
    if (newline < 0) {
        if (socket->bytesAvailable() >= InstanceMessage::MaxRequestSize) {
            qCWarning(lcInstance) << "ignored a request longer than" << InstanceMessage::MaxRequestSize << "bytes";
            socket->abort();
        }
        return;
    }
    const QByteArray line = socket->read(newline + 1).chopped(1);
    const std::optional<QString> folder = InstanceMessage::decodeRequest(line);
    if (!folder) {
        qCWarning(lcInstance) << "ignored a garbled request of" << line.size() << "bytes";
        socket->abort();
        return;
    }
    qCDebug(lcInstance) << "asked to open" << *folder;
    Q_EMIT activationRequested(*folder);
    socket->write(InstanceMessage::acknowledgement());
    socket->disconnectFromServer();
}

} // namespace qcode
