#include "ProviderClient.h"

#include "ProviderCall.h"

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

} // namespace qcode
