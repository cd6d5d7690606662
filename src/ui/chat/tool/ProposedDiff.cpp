#include "ProposedDiff.h"

#include <QStringList>

#include "ToolInput.h"
#include "engine/tool/PatchFormat.h"
#include "engine/tool/UnifiedDiff.h"

using namespace Qt::StringLiterals;

namespace qcode {

namespace {

// Past this many characters the two sides are not diffed line by line
// (on the GUI thread) but shown as removed and re-added whole.
constexpr qsizetype MaxDiffedCharacters = 1024 * 1024;
// Every line of a snippet is worth seeing: the snippet is the context.
constexpr int WholeSnippet = 1000000;

QString header(const QString &oldPath, const QString &newPath)
{
    return u"--- "_s + oldPath + u"\n+++ "_s + newPath + u'\n';
}

void appendLines(QString &out, QChar prefix, const QString &text)
{
    if (text.isEmpty())
        return;
    const QStringList lines = text.split(u'\n');
    const qsizetype count = text.endsWith(u'\n') ? lines.size() - 1 : lines.size();
    for (qsizetype i = 0; i < count; ++i)
        out += prefix + lines.at(i) + u'\n';
}

// The lines of `before` turned into `after`, under one unnumbered "@@".
QString unnumberedHunks(const QString &before, const QString &after, int context, const QString &label = {})
{
    QString out;
    if (before.size() + after.size() > MaxDiffedCharacters) {
        out += u"@@ @@"_s + label + u'\n';
        appendLines(out, u'-', before);
        appendLines(out, u'+', after);
        return out;
    }
    for (const UnifiedDiff::Hunk &hunk : UnifiedDiff::hunks(before, after, context)) {
        out += u"@@ @@"_s + label + u'\n';
        for (const UnifiedDiff::Line &line : hunk.lines) {
            const QChar prefix = line.kind == UnifiedDiff::Line::Kind::Added     ? u'+'
                                 : line.kind == UnifiedDiff::Line::Kind::Removed ? u'-'
                                                                                 : u' ';
            out += prefix + line.text + u'\n';
        }
    }
    return out;
}

QString joinLines(const QStringList &lines)
{
    return lines.isEmpty() ? QString() : QString(lines.join(u'\n') + u'\n');
}

QString withNewline(const QString &text)
{
    return text.isEmpty() || text.endsWith(u'\n') ? text : QString(text + u'\n');
}

} // namespace

QString ProposedDiff::forEdit(const QString &path, const QString &oldString, const QString &newString)
{
    return header(path, path) + unnumberedHunks(withNewline(oldString), withNewline(newString), UnifiedDiff::DefaultContext);
}

QString ProposedDiff::forWrite(const QString &path, const QString &content)
{
    const QString text = withNewline(content);
    const qsizetype lines = text.count(u'\n');
    QString out = header(u"/dev/null"_s, path) + u"@@ -0,0 +1,%1 @@\n"_s.arg(lines);
    appendLines(out, u'+', text);
    return out;
}

QString ProposedDiff::forPatch(const QString &patchText, const QString &projectDirectory)
{
    const Result<QList<PatchFormat::Hunk>> parsed = PatchFormat::parse(patchText);
    if (!parsed)
        return {};
    QString out;
    for (const PatchFormat::Hunk &hunk : *parsed) {
        const QString path = ToolInput::displayPath(hunk.path, projectDirectory);
        switch (hunk.kind) {
        case PatchFormat::Hunk::Kind::Add:
            out += forWrite(path, hunk.contents);
            break;
        case PatchFormat::Hunk::Kind::Delete:
            out += header(path, u"/dev/null"_s) + tr("The file is deleted.") + u'\n';
            break;
        case PatchFormat::Hunk::Kind::Update: {
            const QString target = hunk.movePath.isEmpty() ? path : ToolInput::displayPath(hunk.movePath, projectDirectory);
            out += header(path, target);
            for (const PatchFormat::Chunk &chunk : hunk.chunks) {
                const QString label = chunk.changeContext.isEmpty() ? QString() : QString(u' ' + chunk.changeContext);
                out += unnumberedHunks(joinLines(chunk.oldLines), joinLines(chunk.newLines), WholeSnippet, label);
            }
            break;
        }
        }
    }
    return out;
}

} // namespace qcode
