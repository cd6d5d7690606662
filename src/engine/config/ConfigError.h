#pragma once

#include <QList>
#include <QMetaType>
#include <QString>
#include <QStringList>

namespace qcode {

// A configuration file qcode must not run without: it cannot be read, is
// not UTF-8, does not parse, or holds a key of the wrong type. Unlike a
// note (a problem that leaves the rest usable), an error stops prompts in
// its project: a `"bash": "deny"` in a broken file must not silently stop
// applying.
struct ConfigError {
    QString file;    // native separators; or "OPENCODE_CONFIG_CONTENT"
    int line = 0;    // 1-based; 0: the file as a whole
    int column = 0;  // 1-based, in characters; 0: unknown
    QString message; // what is wrong, one sentence without the location

    // "file:line:column: message", leaving out what is unknown.
    QString toString() const;

    // Errors written "<file>:<line>: <what>" or "<file>:<line>:<column>:
    // <what>" (the YAML and JSONC parsers' form) split back into their
    // parts; any other text becomes the message of an error on `file`.
    static ConfigError fromLocatedText(const QString &file, const QString &text);

    friend bool operator==(const ConfigError &, const ConfigError &) = default;
};

using ConfigErrors = QList<ConfigError>;

// One line per error, for logs and messages that carry them all.
QStringList configErrorLines(const ConfigErrors &errors);

} // namespace qcode

Q_DECLARE_METATYPE(qcode::ConfigError)
