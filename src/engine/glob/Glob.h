#pragma once

#include <QRegularExpression>
#include <QString>
#include <QStringList>

namespace qcode::Glob {

// File globs as config `instructions` use them (Bun.Glob's syntax): `*` and
// `?` within one path segment, `**` across segments, [abc] classes and
// {a,b} alternatives. A segment only matches names starting with "." when
// it starts with "." itself.
bool hasWildcard(const QString &pattern);

// One path segment's pattern as a whole-name regular expression.
QRegularExpression segmentExpression(const QString &segment);

// The files below `root` whose path relative to it matches `pattern`
// ("docs/*.md", "**/RULES.md", "AGENTS.md"), sorted. The walk visits at
// most `maxDirectories` folders, so a `**` in a huge tree stays bounded.
QStringList findFiles(const QString &root, const QString &pattern, int maxDirectories = 20000);

} // namespace qcode::Glob
