#pragma once

#include <QByteArray>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <QObject>
#include <QPointer>
#include <QString>
#include <QTimer>

class QNetworkAccessManager;

namespace qcode {

// One GET for webfetch, with its caps enforced while the answer arrives:
// a declared Content-Length over the limit, or a body that grows past it,
// ends the transfer at once (nothing more is read or kept); so does the
// timeout or cancel(). Redirects are followed up to a bound. finished()
// fires once, when the outcome is known.
class WebDownload : public QObject
{
    Q_OBJECT

public:
    enum class Outcome {
        Pending,
        Done,      // an HTTP answer arrived whole (any status)
        TooLarge,  // over the size limit, by header or by body
        TimedOut,
        Cancelled,
        Failed,    // no HTTP answer: refused, unreachable, TLS, too many redirects …
    };

    static constexpr int MaxRedirects = 10;

    WebDownload(QNetworkAccessManager *network, QNetworkRequest request, qint64 maxBytes, int timeoutMs,
                QObject *parent = nullptr);
    ~WebDownload() override;

    void cancel();

    Outcome outcome() const { return m_outcome; }
    int status() const { return m_status; }
    QByteArray header(const QByteArray &name) const;
    const QByteArray &body() const { return m_body; }
    // Failed: the network's reason.
    const QString &errorString() const { return m_errorString; }

Q_SIGNALS:
    void finished();

private:
    void onMetaData();
    void onReadyRead();
    void onFinished();
    void end(Outcome outcome);
    bool isRedirect() const;

    QPointer<QNetworkReply> m_reply;
    QTimer m_timer;
    qint64 m_maxBytes;
    Outcome m_outcome = Outcome::Pending;
    int m_status = 0;
    QByteArray m_body;
    QString m_errorString;
    QList<QNetworkReply::RawHeaderPair> m_headers;
};

} // namespace qcode
