#pragma once

#include <QCoreApplication>
#include <QString>

namespace qcode {

// What the settings say when the system keychain fails. The failure's own
// words come from QtKeychain through the secret store: with a full stop or
// without one, ending in a colon when QtKeychain said nothing, or empty.
// Each message here makes whole sentences of them around qcode's own, so
// two never run together ("Unknown error Keys can still…").
struct KeychainMessages {
    Q_DECLARE_TR_FUNCTIONS(KeychainMessages)

public:
    // `text` as a sentence of its own: trimmed, a dangling colon or comma
    // dropped, and ended with a full stop unless it already ends like a
    // sentence (in any script qcode is translated into). Empty stays empty.
    static QString sentence(const QString &text);

    // Reading keys failed: why, and where keys can come from instead.
    static QString unreadable(const QString &error);
    // A key was not stored: why, and the variable to set instead.
    static QString keyNotSaved(const QString &providerName, const QString &error, const QString &variable);
    // A key was kept in qcode's private key file, as no keychain runs.
    static QString savedInKeyFile(const QString &providerName, const QString &filePath);
    // Where keys typed in Settings go while no keychain runs.
    static QString keysInKeyFile(const QString &filePath);
    // A key was not deleted: why.
    static QString keyNotRemoved(const QString &providerName, const QString &error);
};

} // namespace qcode
