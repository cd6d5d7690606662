#pragma once

#include <QNetworkAccessManager>
#include <QPointer>

#include "HttpStreamLimits.h"
#include "engine/provider/ProviderRequest.h"
#include "engine/provider/WireProtocol.h"
#include "model/Result.h"

class QObject;

namespace qcode {

class ProviderCall;

// Starts provider calls with one QNetworkAccessManager (the engine
// thread's) and one set of limits. Cheap to copy; holds no call.
class ProviderClient
{
public:
    explicit ProviderClient(QNetworkAccessManager *manager, const HttpStreamLimits &limits = {});

    const HttpStreamLimits &limits() const { return m_limits; }
    void setLimits(const HttpStreamLimits &limits) { m_limits = limits; }

    // Sends `request`, which is already in `protocol`'s wire shape, and
    // returns the running call, owned by `owner`. Its events arrive from
    // the event loop, so connecting to it or taking events() right after
    // this returns loses nothing.
    ProviderCall *stream(WireProtocol protocol, const HttpRequestSpec &request, QObject *owner) const;
    // Builds the request with RequestBuilder for its endpoint's protocol
    // and sends it. A request no API would accept (no model, a bad base
    // URL, a tool result without its call) is refused here, with the
    // builder's sentence, and nothing is sent.
    Result<ProviderCall *> stream(const ProviderRequest &request, QObject *owner) const;

private:
    QPointer<QNetworkAccessManager> m_manager;
    HttpStreamLimits m_limits;
};

} // namespace qcode
