#include "KeychainMessages.h"

#include <QDir>

using namespace Qt::StringLiterals;

namespace qcode {

namespace {

// Latin, CJK and fullwidth sentence ends; a closing quote or bracket may
// follow them ("…said \"no.\"").
bool endsLikeASentence(QStringView text)
{
    static const QString ends = u".!?\u2026\u3002\uff01\uff1f\uff0e"_s;
    static const QString closers = u"\"')]\u201d\u2019\u300d\u300f\uff09"_s;
    qsizetype last = text.size() - 1;
    while (last > 0 && closers.contains(text.at(last)))
        --last;
    return last >= 0 && ends.contains(text.at(last));
}

} // namespace

QString KeychainMessages::sentence(const QString &text)
{
    QString trimmed = text.trimmed();
    while (!trimmed.isEmpty() && QStringView(u":,;\uff1a\uff0c\uff1b").contains(trimmed.back())) {
        trimmed.chop(1);
        trimmed = trimmed.trimmed();
    }
    if (trimmed.isEmpty() || endsLikeASentence(trimmed))
        return trimmed;
    return tr("%1.", "a sentence that came without its full stop").arg(trimmed);
}

QString KeychainMessages::unreadable(const QString &error)
{
    const QString why = sentence(error);
    if (why.isEmpty())
        return tr("The system keychain cannot be read. Keys can still come from environment variables.");
    return tr("The system keychain cannot be read. %1 Keys can still come from environment variables.").arg(why);
}

QString KeychainMessages::keyNotSaved(const QString &providerName, const QString &error, const QString &variable)
{
    const QString why = sentence(error);
    if (why.isEmpty()) {
        return tr("The key for %1 was not saved. Without a keychain, set the environment variable %2 to the key "
                  "before starting qcode (for example in your shell profile).")
            .arg(providerName, variable);
    }
    return tr("The key for %1 was not saved. %2 Without a keychain, set the environment variable %3 to the key "
              "before starting qcode (for example in your shell profile).")
        .arg(providerName, why, variable);
}

QString KeychainMessages::savedInKeyFile(const QString &providerName, const QString &filePath)
{
    return tr("No system keychain is running, so the key for %1 is saved in a private file only you can read: %2")
        .arg(providerName, QDir::toNativeSeparators(filePath));
}

QString KeychainMessages::keysInKeyFile(const QString &filePath)
{
    return tr("No system keychain is running. Keys typed here are saved in a private file only you can read: %1")
        .arg(QDir::toNativeSeparators(filePath));
}

QString KeychainMessages::keyNotRemoved(const QString &providerName, const QString &error)
{
    const QString why = sentence(error);
    if (why.isEmpty())
        return tr("The key for %1 was not removed from the system keychain.").arg(providerName);
    return tr("The key for %1 was not removed from the system keychain. %2").arg(providerName, why);
}

} // namespace qcode
