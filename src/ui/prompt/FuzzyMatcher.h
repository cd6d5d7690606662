#pragma once

#include <QList>
#include <QString>
#include <QStringList>
#include <QStringView>

#include <optional>

namespace qcode {

struct FuzzyMatch {
    int score = 0;
    QList<int> positions; // the matched characters of the text, ascending
};

// fzf's scoring (its "v2" algorithm, simplified): every query character
// must appear in the text in order; a match scores more the more of its
// characters start a word (after a space, "_", "-", "."), follow a path
// separator, open a camelCase hump or digit run, or continue a run of
// consecutive matches, and less for the gaps between them. The query's
// words (split at spaces) must all match. Lower-case queries ignore case;
// a query with a capital letter is case-sensitive ("smart case").
//
// Equal scores rank the shorter text first (ranksBefore), so "main.cpp"
// beats "old/archive/main.cpp" for "main": fewer characters to wade through.
class FuzzyMatcher
{
public:
    explicit FuzzyMatcher(const QString &query);

    bool isEmpty() const { return m_terms.isEmpty(); }
    bool isCaseSensitive() const { return m_caseSensitive; }

    // Nothing when the text does not contain the query; an empty query
    // matches everything with score 0.
    std::optional<FuzzyMatch> match(QStringView text) const;

    // Whether `a` (matched as `matchA`) belongs before `b`: higher score,
    // then shorter text, then alphabetical.
    static bool ranksBefore(const FuzzyMatch &matchA, QStringView a, const FuzzyMatch &matchB, QStringView b);

private:
    // `text` is compared (case-folded unless case-sensitive), `original` is
    // the same text as written.
    std::optional<FuzzyMatch> matchTerm(const QString &term, QStringView text, QStringView original) const;

    QStringList m_terms;
    bool m_caseSensitive = false;
};

} // namespace qcode
