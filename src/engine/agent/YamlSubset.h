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

// The part of YAML that agent and command front matter uses: block maps
// and lists by indentation (including "- key: value" items and lists at a
// key's own indentation), plain, 'single' and "double" quoted scalars,
// | and > block scalars with chomping, [flow, lists] and {flow: maps},
// comments, and the YAML 1.2 core types (null, true/false, numbers).
//
// Leniencies, so files that OpenCode accepts load here too: a plain value
// may contain ": " (OpenCode re-quotes such lines when its YAML parser
// refuses them, as Claude Code's agent files need), and a plain key or
// value may start with "*" ("*": deny written without quotes).
// Anchors, aliases and tags are refused with a message.
//
// Errors read "<fileName>:<line>: <what is wrong>"; `firstLine` is the
// file line of the text's first line (front matter starts on line 2).
class YamlSubset
{
    Q_DECLARE_TR_FUNCTIONS(YamlSubset)

public:
    static Result<YamlDocument> parse(const QString &text, const QString &fileName, int firstLine = 1);
};

} // namespace qcode
