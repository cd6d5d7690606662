#pragma once

#include <QString>

namespace qcode {

// What OpenCode does to a front matter its YAML parser refuses, so agent
// files written for Claude Code load (OpenCode's ConfigMarkdown
// fallbackSanitization): a top-level "key: value" whose plain value
// contains ":" has its whole value taken as text.
//
// qcode also takes as text a plain key or value that starts with "*"
// ("*": deny written without quotes): in YAML "*" starts an alias, and
// front matter refuses aliases anyway.
//
// Unlike OpenCode, which rewrites the value as a "|-" block on a line of
// its own, the value is quoted on its own line, so errors and the source
// map keep the file's line numbers; values that start a flow collection
// ([ or {) are left alone.
class OpenCodeYamlRepair
{
public:
    static QString repair(const QString &yaml);
};

} // namespace qcode
