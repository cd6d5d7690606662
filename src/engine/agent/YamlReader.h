#pragma once

#include <QCoreApplication>
#include <QJsonValue>
#include <QString>

#include "ConfigSourceMap.h"
#include "model/Result.h"

namespace qcode {

struct YamlDocument {
    QJsonValue root;          // null for an empty document
    ConfigSourceMap sourceMap; // each key's line, and the order keys were written in
};

// Agent and command front matter, read by yaml-cpp into JSON values with the
// YAML 1.2 core types (null, true/false, numbers; quoted values stay text).
//
// Stricter than yaml-cpp where yaml-cpp is lenient and real YAML is not: a
// line without "key:" in a map, a quote never closed, a key given twice and a
// second document are errors. Anchors, aliases and tags are refused, so an
// alias bomb ("billion laughs") cannot expand; nesting deeper than any agent
// file needs is refused before it costs stack.
//
// When the text is not YAML, it is read once more after OpenCodeYamlRepair
// quoted what OpenCode's own fallback quotes (so Claude Code agent files
// load); if that fails too, the first error is the one reported.
//
// Errors read "<fileName>:<line>: <what is wrong>"; `firstLine` is the
// file line of the text's first line (front matter starts on line 2).
class YamlReader
{
    Q_DECLARE_TR_FUNCTIONS(YamlReader)

public:
    static Result<YamlDocument> parse(const QString &text, const QString &fileName, int firstLine = 1);
};

} // namespace qcode
