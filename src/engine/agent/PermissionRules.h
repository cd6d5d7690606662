#pragma once

#include <QCoreApplication>
#include <QJsonValue>
#include <QString>
#include <QStringList>

#include <initializer_list>

#include "ConfigSourceMap.h"
#include "PermissionRule.h"

namespace qcode {

// Rulesets as data (reference §9): building them from config, joining
// them, and finding the rule that applies. Asking, replying and
// remembering "always" belong to the permission engine (issue #5), which
// evaluates these same rulesets.
class PermissionRules
{
    Q_DECLARE_TR_FUNCTIONS(PermissionRules)

public:
    // OpenCode's fromConfig: a bare action applies to every permission
    // ({"*", "*", action}); a map gives, in the order the keys were written
    // (from `sourceMap`, else sorted), one rule per permission with an
    // action, or one rule per pattern of a {pattern: action} map. Patterns
    // starting with ~ or $HOME are expanded to `homeDirectory`.
    //
    // An entry that is not "allow", "ask" or "deny" is reported in
    // `problems` (naming `owner`, e.g. "agent \"build\"", when given) and
    // becomes "ask": a typo in a rule meant to deny must not end up allowing.
    static PermissionRuleset fromConfig(const QJsonValue &value, const QString &homeDirectory,
                                        const ConfigSourceMap &sourceMap = {}, const QStringList &path = {},
                                        QStringList *problems = nullptr, const QString &owner = {});

    static QString expandHome(const QString &pattern, const QString &homeDirectory);

    // Rulesets are joined by concatenation; later rules win.
    static PermissionRuleset merge(std::initializer_list<PermissionRuleset> rulesets);

    // The last rule whose permission and pattern wildcards match; when none
    // does, {permission, "*", ask}.
    static PermissionRule evaluate(const QString &permission, const QString &pattern, const PermissionRuleset &rules);

    // For what no pattern describes (PermissionRequest::judgedWhole): the
    // last rule whose permission matches and whose pattern is exactly "*";
    // when none is, {permission, "*", ask}.
    static PermissionRule evaluateWhole(const QString &permission, const PermissionRuleset &rules);
};

} // namespace qcode
