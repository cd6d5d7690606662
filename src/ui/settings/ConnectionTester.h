#pragma once

#include <QObject>
#include <QPointer>
#include <QStringList>
#include <QTimer>
#include <QUrl>

#include <chrono>

class QNetworkAccessManager;
class QNetworkReply;

namespace qcode {

// "Test connection" for an OpenAI-compatible server: GET <base>/models
// with the key, on the caller's network manager, with a deadline. Answers
// once per start() with connected() or failed(); a new start() or
// cancel() drops the request before it, so a late answer never lands.
class ConnectionTester : public QObject
{
    Q_OBJECT

public:
    ConnectionTester(QNetworkAccessManager *network, QObject *parent = nullptr);
    ~ConnectionTester() override;

    void setTimeout(std::chrono::milliseconds timeout) { m_timeout = timeout; }
    std::chrono::milliseconds timeout() const { return m_timeout; }

    void start(const QUrl &baseUrl, const QString &key);
    void cancel();
    bool isRunning() const { return !m_reply.isNull(); }

    // <base>/models, whatever slashes the base ends in.
    static QUrl modelsUrl(const QUrl &baseUrl);

Q_SIGNALS:
    void connected(const QStringList &models);
    void failed(const QString &message);

private:
    void finish();
    QString httpFailure(int status, const QByteArray &body) const;

    QNetworkAccessManager *m_network = nullptr;
    QPointer<QNetworkReply> m_reply;
    QTimer m_deadline;
    QUrl m_url;
    bool m_timedOut = false;
    std::chrono::milliseconds m_timeout{std::chrono::seconds(10)};
};

} // namespace qcode
