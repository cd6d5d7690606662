#pragma once

#include <QString>
#include <QStringView>

namespace qcode::HtmlToMarkdown {

// A web page as Markdown for the model (webfetch's default format; OpenCode
// uses turndown with these choices): ATX headings ("## Title"), fenced code
// blocks with the language a "language-…" class names, "-" bullets and
// "1." numbers (nested lists indented under their item), **strong**,
// *emphasis*, `code`, [links](href), ![images](src), "> " quotes, "---"
// rules and GitHub tables. Scripts, styles, <noscript> and the <head> are
// left out; character references are decoded; whitespace is collapsed as
// a browser collapses it, except in <pre>.
QString convert(QStringView html);

} // namespace qcode::HtmlToMarkdown
