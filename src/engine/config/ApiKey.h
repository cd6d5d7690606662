#pragma once

#include <QDebug>
#include <QString>

namespace qcode {

// A provider's secret. It has no JSON form and prints as "<redacted>", so
// a key cannot reach a log line, the database or an export by accident;
// the one place that needs the text (the request's auth header) calls
// reveal().
class ApiKey
{
public:
    ApiKey() = default;
    explicit ApiKey(QString secret) : m_secret(std::move(secret)) {}

    bool isEmpty() const { return m_secret.isEmpty(); }
    const QString &reveal() const { return m_secret; }

    bool operator==(const ApiKey &) const = default;

private:
    QString m_secret;
};

inline QDebug operator<<(QDebug debug, const ApiKey &key)
{
    QDebugStateSaver saver(debug);
    debug.nospace() << "ApiKey(" << (key.isEmpty() ? "empty" : "<redacted>") << ')';
    return debug;
}

} // namespace qcode
