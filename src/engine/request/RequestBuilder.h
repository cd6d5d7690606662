#pragma once

#include <QCoreApplication>

#include "engine/provider/ProviderRequest.h"
#include "model/Result.h"

namespace qcode {

// Turns a protocol-neutral ProviderRequest into the HTTP request its wire
// protocol documents: checks what every API would reject (an empty model,
// a base URL that is not http(s), a tool result without its call, a call
// without its result), applies the endpoint's message transforms
// (ProviderTransform::applyMessageTransforms), hands the request to the
// protocol's builder and puts the endpoint's extra headers on top (a header
// of the same name is replaced, so a proxy can swap the auth scheme).
class RequestBuilder
{
    Q_DECLARE_TR_FUNCTIONS(RequestBuilder)

public:
    static Result<HttpRequestSpec> build(const ProviderRequest &request);

    // The checks alone, on a request already transformed.
    static Result<void> validate(const ProviderRequest &request);
};

// The engine's entry point: RequestBuilder::build.
Result<HttpRequestSpec> buildHttpRequest(const ProviderRequest &request);

} // namespace qcode
