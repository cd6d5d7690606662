#pragma once

#include <QString>
#include <QStringList>

#include "model/Result.h"

namespace qcode {

// OpenCode's edit matching (reference §8.2): the model's oldString rarely
// matches the file byte for byte (indentation, trailing blanks, escaped
// quotes), so a chain of ever looser strategies proposes pieces of the
// file that the model probably meant. The first proposal that occurs in
// the file once (or at all, with replaceAll) is replaced.
//
// Each replacer returns its proposals in order, each an exact substring
// candidate; replace() tries them in OpenCode's order. Text is compared as
// UTF-16 units, as JavaScript does, so the similarity figures agree.
// The desktop app reuses this to preview an edit.
class EditReplacers
{
public:
    // BlockAnchor: with one candidate block any middle is accepted; among
    // several the most similar middle wins if at least this similar.
    static constexpr double SingleCandidateSimilarityThreshold = 0.0;
    static constexpr double MultipleCandidatesSimilarityThreshold = 0.3;

    // `content` with `oldString` replaced by `newString` (every occurrence
    // with replaceAll), or OpenCode's sentence: identical strings, not
    // found, or found more than once.
    static Result<QString> replace(const QString &content, const QString &oldString, const QString &newString,
                                   bool replaceAll);

    static QStringList simple(const QString &content, const QString &find);
    static QStringList lineTrimmed(const QString &content, const QString &find);
    static QStringList blockAnchor(const QString &content, const QString &find);
    static QStringList whitespaceNormalized(const QString &content, const QString &find);
    static QStringList indentationFlexible(const QString &content, const QString &find);
    static QStringList escapeNormalized(const QString &content, const QString &find);
    static QStringList trimmedBoundary(const QString &content, const QString &find);
    static QStringList contextAware(const QString &content, const QString &find);
    static QStringList multiOccurrence(const QString &content, const QString &find);

    // Edit distance in UTF-16 units, in O(min(a, b)) memory.
    static qsizetype levenshtein(const QString &a, const QString &b);
};

} // namespace qcode
