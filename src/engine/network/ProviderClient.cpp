#include "ProviderClient.h"

#include "NetworkLogging.h"
#include "ProviderCall.h"
#include "engine/request/RequestBuilder.h"

#include <QNetworkAccessManager>

namespace qcode {

ProviderClient::ProviderClient(QNetworkAccessManager *manager, const HttpStreamLimits &limits)
    : m_manager(manager)
    , m_limits(limits)
{
}

ProviderCall *ProviderClient::stream(WireProtocol protocol, const HttpRequestSpec &request, QObject *owner) const
{
    auto *call = new ProviderCall(m_manager, protocol, request, m_limits, owner);
    call->start();
    return call;
}

Result<ProviderCall *> ProviderClient::stream(const ProviderRequest &request, QObject *owner) const
{
    Result<HttpRequestSpec> spec = buildHttpRequest(request);
    if (!spec) {
        qCWarning(lcHttp).noquote() << "not sending a request to" << request.endpoint.providerId << "-"
                                    << spec.errorMessage();
        return spec.error();
    }
    return stream(request.endpoint.protocol, *spec, owner);
}

} // namespace qcode
