#pragma once

#include <QString>
#include <QStringList>

namespace qcode::PermissionTexts {

// What the model reads when a permission stops a call: OpenCode's words,
// in English whatever the window's language (they are input to the model,
// which was trained on them). Tool calls and the doom-loop check say the
// same things.

// RejectedError: the person said no.
inline QString rejected()
{
    return QStringLiteral("The user rejected permission to use this specific tool call.");
}

// CorrectedError: the person said no, and why.
inline QString corrected(const QString &feedback)
{
    return QStringLiteral("The user rejected permission to use this specific tool call with the following "
                          "feedback: %1")
        .arg(feedback);
}

// DeniedError: a deny rule answered; nobody was asked.
inline QString denied(const QString &permission, const QStringList &patterns)
{
    return QStringLiteral("The user has specified a rule which prevents you from using this specific tool call "
                          "(permission \"%1\" for %2).")
        .arg(permission, patterns.join(QStringLiteral(", ")));
}

} // namespace qcode::PermissionTexts
