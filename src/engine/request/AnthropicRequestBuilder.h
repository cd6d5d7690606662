#pragma once

#include <QCoreApplication>

#include "engine/provider/ProviderRequest.h"
#include "model/Result.h"

namespace qcode {

// Anthropic Messages (wire formats §3.1): POST {baseUrl}/messages with
// x-api-key and anthropic-version. System messages become text blocks;
// consecutive user and tool messages merge into one user turn (so the
// results of parallel calls travel together, as tool_result blocks first);
// thinking and redacted_thinking blocks are replayed with their signature
// and data; attachments go as base64 (or url) image and document blocks;
// cache markers become cache_control on the block they mark.
class AnthropicRequestBuilder
{
    Q_DECLARE_TR_FUNCTIONS(AnthropicRequestBuilder)

public:
    // Expects a request RequestBuilder has validated and transformed.
    static Result<HttpRequestSpec> build(const ProviderRequest &request);
};

} // namespace qcode
