#pragma once

#include <QByteArray>
#include <QJsonObject>
#include <QList>

#include <utility>

namespace qcode::test {

// One HTTP request as FakeProviderServer received it.
struct RecordedRequest {
    QByteArray method;
    QByteArray path; // with the query, e.g. "/v1beta/models/m:streamGenerateContent?alt=sse"
    QList<std::pair<QByteArray, QByteArray>> headers;
    QByteArray body;

    // Case-insensitive; empty when absent.
    QByteArray header(QByteArrayView name) const;
    // The body as a JSON object; empty when it is not one.
    QJsonObject json() const;
};

} // namespace qcode::test
