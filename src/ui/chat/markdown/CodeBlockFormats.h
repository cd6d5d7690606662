#pragma once

#include <QTextBlockFormat>
#include <QTextCharFormat>
#include <QUrl>

#include <optional>

class QPalette;

namespace qcode {

// How code blocks look in a Markdown view: a header line with the language
// and a Copy link, then the code in monospace on a subtle background, with
// colours taken from the palette so light and dark themes both read well.
struct CodeBlockFormats {
    QTextBlockFormat header;
    QTextCharFormat headerText;
    QTextCharFormat copyLink; // without its href: see copyLinkFor()
    QTextBlockFormat code;    // without the language and fence properties
    QTextCharFormat codeText;

    static CodeBlockFormats forPalette(const QPalette &palette);

    QTextCharFormat copyLinkFor(int codeIndex) const;
    QTextBlockFormat codeBlockFor(const QString &language, QChar fence) const;

    // The Copy link's target names the code block by its index; nothing
    // else in the document uses this scheme.
    static QUrl copyUrl(int codeIndex);
    static std::optional<int> copyIndex(const QUrl &url);
};

} // namespace qcode
