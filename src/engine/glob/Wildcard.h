#pragma once

#include <QString>

namespace qcode::Wildcard {

// OpenCode 1.2's permission wildcard (util/wildcard.ts, reference §9):
// backslashes count as "/" in both strings; `*` matches any run of
// characters, "/" included; `?` matches one character; everything else is
// literal; the whole string must match. A pattern ending in " *" also
// matches its bare prefix, so "ls *" matches "ls" and "ls -la" but not
// "lsof".
bool match(const QString &text, const QString &pattern);

} // namespace qcode::Wildcard
