#pragma once

#include <QString>
#include <QStringView>

namespace qcode::HtmlToText {

// A web page as the text a reader sees (webfetch's "text" format): no
// markup, scripts, styles, <noscript> or <head>; one line per paragraph,
// heading, list item or table row, cells separated by tabs; <pre> kept as
// written; character references decoded and other whitespace collapsed.
QString convert(QStringView html);

} // namespace qcode::HtmlToText
