#include "UnifiedDiff.h"

#include <QHash>

#include <algorithm>
#include <vector>

namespace qcode {

namespace {

struct Token {
    QString text;
    bool newline = true;
};

std::vector<Token> tokenize(const QString &text)
{
    std::vector<Token> tokens;
    qsizetype start = 0;
    while (start < text.size()) {
        const qsizetype end = text.indexOf(u'\n', start);
        if (end < 0) {
            tokens.push_back({text.mid(start), false});
            break;
        }
        tokens.push_back({text.mid(start, end - start), true});
        start = end + 1;
    }
    return tokens;
}

enum class Op { Equal, Insert, Delete };

// Myers' O((N+M)·D) diff over interned line ids. Keeping every round's
// frontier costs O(D²) memory, so past a budget (files that share almost
// nothing) the differing middle is reported as removed and re-added: a
// correct, if not minimal, diff.
std::vector<Op> diffIds(const std::vector<int> &a, const std::vector<int> &b)
{
    const int n = int(a.size());
    const int m = int(b.size());
    int prefix = 0;
    while (prefix < n && prefix < m && a[size_t(prefix)] == b[size_t(prefix)])
        ++prefix;
    int suffix = 0;
    while (suffix < n - prefix && suffix < m - prefix && a[size_t(n - 1 - suffix)] == b[size_t(m - 1 - suffix)])
        ++suffix;

    std::vector<Op> ops(size_t(prefix), Op::Equal);
    const int aStart = prefix;
    const int bStart = prefix;
    const int aLength = n - prefix - suffix;
    const int bLength = m - prefix - suffix;

    std::vector<Op> middle;
    const auto wholesale = [&] {
        middle.assign(size_t(aLength), Op::Delete);
        middle.insert(middle.end(), size_t(bLength), Op::Insert);
    };

    if (aLength == 0 || bLength == 0) {
        wholesale();
    } else {
        static constexpr size_t TraceBudget = 8u * 1024u * 1024u; // frontier entries kept, ~32 MB
        const int max = aLength + bLength;
        const int offset = max;
        std::vector<int> v(size_t(2 * max + 2), 0);
        std::vector<std::vector<int>> trace;
        size_t traced = 0;
        bool done = false;
        for (int d = 0; d <= max && !done; ++d) {
            traced += size_t(2 * d + 1);
            if (traced > TraceBudget)
                break;
            trace.emplace_back(v.begin() + (offset - d), v.begin() + (offset + d + 1));
            for (int k = -d; k <= d; k += 2) {
                int x;
                if (k == -d || (k != d && v[size_t(offset + k - 1)] < v[size_t(offset + k + 1)]))
                    x = v[size_t(offset + k + 1)];
                else
                    x = v[size_t(offset + k - 1)] + 1;
                int y = x - k;
                while (x < aLength && y < bLength && a[size_t(aStart + x)] == b[size_t(bStart + y)]) {
                    ++x;
                    ++y;
                }
                v[size_t(offset + k)] = x;
                if (x >= aLength && y >= bLength) {
                    done = true;
                    break;
                }
            }
        }
        if (!done) {
            wholesale();
        } else {
            // Walk back through the saved frontiers (trace[d] holds the
            // frontier before round d, for diagonals -d..d).
            int x = aLength;
            int y = bLength;
            std::vector<Op> reversed;
            for (int d = int(trace.size()) - 1; d >= 0; --d) {
                const std::vector<int> &frontier = trace[size_t(d)];
                const auto at = [&](int k) { return frontier[size_t(k + d)]; };
                const int k = x - y;
                int previousK;
                if (d == 0)
                    previousK = 0;
                else if (k == -d || (k != d && at(k - 1) < at(k + 1)))
                    previousK = k + 1;
                else
                    previousK = k - 1;
                const int previousX = d == 0 ? 0 : at(previousK);
                const int previousY = previousX - previousK;
                while (x > previousX && y > previousY) {
                    reversed.push_back(Op::Equal);
                    --x;
                    --y;
                }
                if (d > 0) {
                    reversed.push_back(x == previousX ? Op::Insert : Op::Delete);
                    x = previousX;
                    y = previousY;
                }
            }
            middle.assign(reversed.rbegin(), reversed.rend());
        }
    }
    ops.insert(ops.end(), middle.begin(), middle.end());
    ops.insert(ops.end(), size_t(suffix), Op::Equal);

    // Within each run of changes, removals first (the usual convention,
    // and the `diff` package's).
    for (size_t i = 0; i < ops.size();) {
        if (ops[i] == Op::Equal) {
            ++i;
            continue;
        }
        size_t j = i;
        while (j < ops.size() && ops[j] != Op::Equal)
            ++j;
        std::stable_partition(ops.begin() + qsizetype(i), ops.begin() + qsizetype(j),
                              [](Op op) { return op == Op::Delete; });
        i = j;
    }
    return ops;
}

struct LineOp {
    Op op;
    int oldIndex; // old lines before this one
    int newIndex; // new lines before this one
};

std::vector<LineOp> lineOps(const std::vector<Token> &oldTokens, const std::vector<Token> &newTokens)
{
    QHash<QString, int> ids;
    const auto intern = [&ids](const std::vector<Token> &tokens) {
        std::vector<int> result;
        result.reserve(tokens.size());
        for (const Token &token : tokens) {
            const QString key = token.newline ? QString(token.text + u'\n') : token.text;
            const auto found = ids.constFind(key);
            result.push_back(found != ids.cend() ? *found : *ids.insert(key, int(ids.size())));
        }
        return result;
    };
    const std::vector<int> a = intern(oldTokens);
    const std::vector<int> b = intern(newTokens);
    std::vector<LineOp> result;
    int oldIndex = 0;
    int newIndex = 0;
    for (const Op op : diffIds(a, b)) {
        result.push_back({op, oldIndex, newIndex});
        if (op != Op::Insert)
            ++oldIndex;
        if (op != Op::Delete)
            ++newIndex;
    }
    return result;
}

} // namespace

QList<UnifiedDiff::Hunk> UnifiedDiff::hunks(const QString &oldText, const QString &newText, int context)
{
    const std::vector<Token> oldTokens = tokenize(oldText);
    const std::vector<Token> newTokens = tokenize(newText);
    const std::vector<LineOp> ops = lineOps(oldTokens, newTokens);
    context = std::max(context, 0);

    QList<Hunk> result;
    const int count = int(ops.size());
    int i = 0;
    while (i < count) {
        if (ops[size_t(i)].op == Op::Equal) {
            ++i;
            continue;
        }
        // A hunk runs from `context` lines before its first change to
        // `context` lines after its last, swallowing gaps of up to
        // 2·context unchanged lines.
        const int start = std::max(0, i - context);
        int lastChange = i;
        int j = i;
        while (j < count) {
            if (ops[size_t(j)].op != Op::Equal) {
                lastChange = j;
                ++j;
                continue;
            }
            int gapEnd = j;
            while (gapEnd < count && ops[size_t(gapEnd)].op == Op::Equal)
                ++gapEnd;
            if (gapEnd >= count || gapEnd - j > 2 * context)
                break;
            j = gapEnd;
        }
        const int end = std::min(count, lastChange + 1 + context);

        Hunk hunk;
        hunk.oldStart = ops[size_t(start)].oldIndex + 1;
        hunk.newStart = ops[size_t(start)].newIndex + 1;
        for (int k = start; k < end; ++k) {
            const LineOp &op = ops[size_t(k)];
            Line line;
            const Token *token = nullptr;
            switch (op.op) {
            case Op::Equal:
                line.kind = Line::Kind::Context;
                token = &oldTokens[size_t(op.oldIndex)];
                ++hunk.oldLines;
                ++hunk.newLines;
                break;
            case Op::Delete:
                line.kind = Line::Kind::Removed;
                token = &oldTokens[size_t(op.oldIndex)];
                ++hunk.oldLines;
                break;
            case Op::Insert:
                line.kind = Line::Kind::Added;
                token = &newTokens[size_t(op.newIndex)];
                ++hunk.newLines;
                break;
            }
            line.text = token->text;
            line.missingNewline = !token->newline;
            hunk.lines.append(line);
        }
        // diff(1)'s quirk: an empty side names the line before it.
        if (hunk.oldLines == 0)
            hunk.oldStart -= 1;
        if (hunk.newLines == 0)
            hunk.newStart -= 1;
        result.append(hunk);
        i = end;
    }
    return result;
}

QString UnifiedDiff::twoFilesPatch(const QString &oldName, const QString &newName, const QString &oldText,
                                   const QString &newText, int context)
{
    QStringList out;
    if (oldName == newName)
        out.append(QStringLiteral("Index: ") + oldName);
    out.append(QString(67, u'='));
    out.append(QStringLiteral("--- ") + oldName);
    out.append(QStringLiteral("+++ ") + newName);
    const QList<Hunk> all = hunks(oldText, newText, context);
    for (const Hunk &hunk : all) {
        out.append(QStringLiteral("@@ -%1,%2 +%3,%4 @@")
                       .arg(hunk.oldStart)
                       .arg(hunk.oldLines)
                       .arg(hunk.newStart)
                       .arg(hunk.newLines));
        for (const Line &line : hunk.lines) {
            const QChar prefix = line.kind == Line::Kind::Added     ? u'+'
                                 : line.kind == Line::Kind::Removed ? u'-'
                                                                    : u' ';
            out.append(prefix + line.text);
            if (line.missingNewline)
                out.append(QStringLiteral("\\ No newline at end of file"));
        }
    }
    return out.join(u'\n') + u'\n';
}

UnifiedDiff::Counts UnifiedDiff::counts(const QString &oldText, const QString &newText)
{
    Counts counts;
    for (const LineOp &op : lineOps(tokenize(oldText), tokenize(newText))) {
        if (op.op == Op::Insert)
            ++counts.additions;
        else if (op.op == Op::Delete)
            ++counts.deletions;
    }
    return counts;
}

QString UnifiedDiff::trimIndentation(const QString &patch)
{
    QStringList lines = patch.split(u'\n');
    const auto isBody = [](const QString &line) {
        return (line.startsWith(u'+') || line.startsWith(u'-') || line.startsWith(u' '))
               && !line.startsWith(QLatin1String("---")) && !line.startsWith(QLatin1String("+++"));
    };
    qsizetype minIndent = -1;
    for (const QString &line : std::as_const(lines)) {
        if (!isBody(line))
            continue;
        const QStringView content = QStringView(line).mid(1);
        if (content.trimmed().isEmpty())
            continue;
        qsizetype indent = 0;
        while (indent < content.size() && content.at(indent).isSpace())
            ++indent;
        minIndent = minIndent < 0 ? indent : std::min(minIndent, indent);
    }
    if (minIndent <= 0)
        return patch;
    for (QString &line : lines) {
        if (isBody(line))
            line = line.left(1) + line.mid(1 + minIndent);
    }
    return lines.join(u'\n');
}

} // namespace qcode
