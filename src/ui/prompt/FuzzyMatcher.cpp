#include "FuzzyMatcher.h"

#include <QRegularExpression>

#include <algorithm>
#include <limits>
#include <vector>

using namespace Qt::StringLiterals;

namespace qcode {
namespace {

// fzf's constants (src/algo/algo.go), so the ordering feels the same.
constexpr int ScoreMatch = 16;
constexpr int GapStart = 3;
constexpr int GapExtension = 1;
constexpr int BonusBoundary = ScoreMatch / 2;
constexpr int BonusNonWord = ScoreMatch / 2;
constexpr int BonusCamel = BonusBoundary - GapExtension;
constexpr int BonusConsecutive = GapStart + GapExtension;
constexpr int BonusBoundaryWhite = BonusBoundary + 2;
constexpr int BonusBoundaryDelimiter = BonusBoundary + 1;
constexpr int FirstCharMultiplier = 2;
constexpr int None = std::numeric_limits<int>::min() / 2;

enum class CharClass { White, NonWord, Delimiter, Lower, Upper, Letter, Number };

CharClass classOf(QChar c)
{
    if (c.isSpace())
        return CharClass::White;
    if (c == u'/' || c == u'\\' || c == u':' || c == u';' || c == u',' || c == u'|')
        return CharClass::Delimiter;
    if (c.isLower())
        return CharClass::Lower;
    if (c.isUpper())
        return CharClass::Upper;
    if (c.isDigit())
        return CharClass::Number;
    if (c.isLetter())
        return CharClass::Letter;
    return CharClass::NonWord;
}

bool isWord(CharClass c)
{
    return c != CharClass::White && c != CharClass::NonWord && c != CharClass::Delimiter;
}

int bonusFor(CharClass previous, CharClass current)
{
    if (isWord(current)) {
        if (previous == CharClass::White)
            return BonusBoundaryWhite;
        if (previous == CharClass::Delimiter)
            return BonusBoundaryDelimiter;
        if (previous == CharClass::NonWord)
            return BonusBoundary;
    }
    if ((previous == CharClass::Lower && current == CharClass::Upper)
        || (previous != CharClass::Number && current == CharClass::Number))
        return BonusCamel;
    if (current == CharClass::NonWord || current == CharClass::Delimiter)
        return BonusNonWord;
    if (current == CharClass::White)
        return BonusBoundaryWhite;
    return 0;
}

// Text start counts as after a path separator: a file name at the top of
// the project is as much a "start" as one below a folder.
std::vector<int> bonuses(QStringView text)
{
    std::vector<int> out(text.size());
    CharClass previous = CharClass::Delimiter;
    for (qsizetype j = 0; j < text.size(); ++j) {
        const CharClass current = classOf(text[j]);
        out[j] = bonusFor(previous, current);
        previous = current;
    }
    return out;
}

// Character by character (simple case folding), so positions in the folded
// text are positions in the text: "ß" stays one character.
QString folded(QStringView text)
{
    QString out(text.size(), Qt::Uninitialized);
    for (qsizetype i = 0; i < text.size(); ++i)
        out[i] = text[i].toCaseFolded();
    return out;
}

} // namespace

FuzzyMatcher::FuzzyMatcher(const QString &query)
{
    static const QRegularExpression spaces(u"\\s+"_s);
    m_terms = query.split(spaces, Qt::SkipEmptyParts);
    m_caseSensitive = std::any_of(query.cbegin(), query.cend(), [](QChar c) { return c.isUpper(); });
    if (!m_caseSensitive)
        for (QString &term : m_terms)
            term = folded(term);
}

std::optional<FuzzyMatch> FuzzyMatcher::match(QStringView text) const
{
    FuzzyMatch total;
    if (m_terms.isEmpty())
        return total;
    const QString lower = m_caseSensitive ? QString() : folded(text);
    const QStringView compared = m_caseSensitive ? text : QStringView(lower);
    for (const QString &term : m_terms) {
        auto one = matchTerm(term, compared, text);
        if (!one)
            return std::nullopt;
        total.score += one->score;
        total.positions += one->positions;
    }
    std::sort(total.positions.begin(), total.positions.end());
    total.positions.erase(std::unique(total.positions.begin(), total.positions.end()), total.positions.end());
    return total;
}

// A dynamic programme over (query character i, text position j):
// matched[i][j] is the best score with query[i] matched exactly at j,
// gapped[i][j] the best with query[i] matched before j and the characters
// up to j skipped (a gap costs GapStart, then GapExtension per character).
std::optional<FuzzyMatch> FuzzyMatcher::matchTerm(const QString &term, QStringView text, QStringView original) const
{
    const qsizetype m = term.size();
    const qsizetype n = text.size();
    // A quick subsequence check first: most candidates fail it, and it costs
    // one pass instead of m passes.
    qsizetype next = 0;
    for (qsizetype j = 0; j < n && next < m; ++j)
        if (text[j] == term[next])
            ++next;
    if (next < m)
        return std::nullopt;

    // Word starts and humps are read from the text as written: folded, a
    // camelCase name would have none.
    const std::vector<int> bonus = bonuses(original);
    const auto at = [n](qsizetype i, qsizetype j) { return static_cast<size_t>(i * n + j); };
    std::vector<int> matched(static_cast<size_t>(m * n), None);
    std::vector<int> runBonus(static_cast<size_t>(m * n), 0); // the bonus where the current run began
    std::vector<bool> fromDiagonal(static_cast<size_t>(m * n), false);
    std::vector<int> gapped(static_cast<size_t>(m * n), None);
    std::vector<int> gapOrigin(static_cast<size_t>(m * n), -1); // where the match before the gap was

    for (qsizetype i = 0; i < m; ++i) {
        for (qsizetype j = 0; j < n; ++j) {
            if (j > 0) {
                const int open = matched[at(i, j - 1)] == None ? None : matched[at(i, j - 1)] - GapStart;
                const int extend = gapped[at(i, j - 1)] == None ? None : gapped[at(i, j - 1)] - GapExtension;
                if (open != None && open >= extend) {
                    gapped[at(i, j)] = open;
                    gapOrigin[at(i, j)] = int(j - 1);
                } else if (extend != None) {
                    gapped[at(i, j)] = extend;
                    gapOrigin[at(i, j)] = gapOrigin[at(i, j - 1)];
                }
            }
            if (text[j] != term[i])
                continue;
            if (i == 0) {
                matched[at(i, j)] = ScoreMatch + bonus[j] * FirstCharMultiplier;
                runBonus[at(i, j)] = bonus[j];
                continue;
            }
            if (j == 0)
                continue;
            int best = None;
            if (const int diagonal = matched[at(i - 1, j - 1)]; diagonal != None) {
                const int run = runBonus[at(i - 1, j - 1)];
                best = diagonal + ScoreMatch + std::max({bonus[j], run, BonusConsecutive});
                fromDiagonal[at(i, j)] = true;
                runBonus[at(i, j)] = std::max(run, bonus[j]);
            }
            if (const int gap = gapped[at(i - 1, j - 1)]; gap != None && gap + ScoreMatch + bonus[j] > best) {
                best = gap + ScoreMatch + bonus[j];
                fromDiagonal[at(i, j)] = false;
                runBonus[at(i, j)] = bonus[j];
            }
            matched[at(i, j)] = best;
        }
    }

    qsizetype end = -1;
    for (qsizetype j = 0; j < n; ++j)
        if (matched[at(m - 1, j)] != None && (end < 0 || matched[at(m - 1, j)] > matched[at(m - 1, end)]))
            end = j;
    if (end < 0)
        return std::nullopt;

    FuzzyMatch result;
    result.score = matched[at(m - 1, end)];
    result.positions.resize(m);
    qsizetype j = end;
    for (qsizetype i = m - 1; i >= 0; --i) {
        result.positions[i] = int(j);
        if (i == 0)
            break;
        j = fromDiagonal[at(i, j)] ? j - 1 : gapOrigin[at(i - 1, j - 1)];
    }
    return result;
}

bool FuzzyMatcher::ranksBefore(const FuzzyMatch &matchA, QStringView a, const FuzzyMatch &matchB, QStringView b)
{
    if (matchA.score != matchB.score)
        return matchA.score > matchB.score;
    if (a.size() != b.size())
        return a.size() < b.size();
    return a.compare(b, Qt::CaseInsensitive) < 0;
}

} // namespace qcode
