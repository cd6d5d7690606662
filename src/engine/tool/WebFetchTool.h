#pragma once

#include "Tool.h"
#include "ToolServices.h"

namespace qcode {

// OpenCode's `webfetch` (reference §8.8): fetches an http(s) URL and gives
// the model its content as Markdown (the default), plain text or the raw
// HTML; other text comes as it is, images as an attachment. Asks
// `webfetch` with the URL. Caps: 5 MB (declared or received: the transfer
// stops there), a timeout of `timeout` seconds (default 30, at most 120),
// a bounded number of redirects. Sends a browser's User-Agent and an
// Accept header for the format; a Cloudflare challenge (403 with
// `cf-mitigated: challenge`) is retried once as "opencode", which
// Cloudflare lets through for some sites. Title: "<url> (<content type>)".
class WebFetchTool : public Tool
{
public:
    static constexpr qint64 MaxResponseBytes = 5 * 1024 * 1024;
    static constexpr int DefaultTimeoutSeconds = 30;
    static constexpr int MaxTimeoutSeconds = 120;

    explicit WebFetchTool(ToolServices services);

    QString name() const override;
    QString description() const override;
    QJsonObject parameters() const override;
    QCoro::Task<ToolResult> execute(QJsonObject arguments, ToolContext context) override;

private:
    ToolServices m_services;
};

} // namespace qcode
