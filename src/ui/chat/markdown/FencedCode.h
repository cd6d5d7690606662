#pragma once

#include <QString>
#include <QStringList>

#include <optional>

#include "MarkdownLine.h"

namespace qcode {

// A top-level fenced code block taken apart: what the view shows and what
// its Copy puts on the clipboard.
struct FencedCode {
    FenceMarker fence;
    QString language;  // the info string's first word, as written
    QStringList lines; // the content, without the fences, indentation removed as CommonMark says
    bool closed = false;

    QString code() const { return lines.join(u'\n'); }

    // Keeps what can be shown quickly: lines cut at `maxLineLength` (with
    // "…"), and no more lines than fit in `maxLength` characters. Returns how
    // many lines were dropped.
    qsizetype truncate(qsizetype maxLength, qsizetype maxLineLength);

    // `source` is one block from MarkdownBlocks (LF line breaks); nullopt
    // when it does not start with a fence.
    static std::optional<FencedCode> parse(const QString &source);
};

} // namespace qcode
