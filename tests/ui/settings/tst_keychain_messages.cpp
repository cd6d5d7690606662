#include <QRegularExpression>
#include <QTest>

#include "ui/settings/KeychainMessages.h"

using namespace Qt::StringLiterals;
using namespace qcode;

namespace {

// What the secret store passes on, QtKeychain's words after its own.
const QString ReadFailed = u"Could not read the key for anthropic from the system keychain: "_s;

// Two sentences run together: a word, a space, then a capital that starts
// the next one ("error Keys"), or a doubled or dangling stop.
void verifyWholeSentences(const QString &message)
{
    static const QRegularExpression runTogether(u"[a-z] (Keys|Without)\\b"_s);
    QVERIFY2(!runTogether.match(message).hasMatch(), qPrintable(message));
    QVERIFY2(!message.contains(u".."_s), qPrintable(message));
    QVERIFY2(!message.contains(u":."_s) && !message.contains(u": ."_s), qPrintable(message));
    QVERIFY2(!message.contains(u"  "_s), qPrintable(message));
    QVERIFY2(message.endsWith(u'.'), qPrintable(message));
}

} // namespace

class KeychainMessagesTest : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void sentenceEndsWordsThatLackAFullStop_data();
    void sentenceEndsWordsThatLackAFullStop();
    void unreadableKeychainReadsAsSentencesWhateverItSays_data();
    void unreadableKeychainReadsAsSentencesWhateverItSays();
    void unsavedKeyReadsAsSentencesWhateverTheKeychainSays_data();
    void unsavedKeyReadsAsSentencesWhateverTheKeychainSays();
    void unremovedKeyReadsAsSentencesWhateverTheKeychainSays_data();
    void unremovedKeyReadsAsSentencesWhateverTheKeychainSays();
    void placeholdersInTheKeychainsWordsAreNotFilledIn();
};

void KeychainMessagesTest::sentenceEndsWordsThatLackAFullStop_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("expected");
    QTest::newRow("no stop") << u"Unknown error"_s << u"Unknown error."_s;
    QTest::newRow("a stop") << u"Unknown error."_s << u"Unknown error."_s;
    QTest::newRow("surrounding blanks") << u"  Unknown error \n"_s << u"Unknown error."_s;
    QTest::newRow("empty") << QString() << QString();
    QTest::newRow("blank") << u" \t"_s << QString();
    QTest::newRow("dangling colon") << ReadFailed << u"Could not read the key for anthropic from the system keychain."_s;
    QTest::newRow("question") << u"Is the keyring unlocked?"_s << u"Is the keyring unlocked?"_s;
    QTest::newRow("exclamation") << u"Access denied!"_s << u"Access denied!"_s;
    QTest::newRow("quoted stop") << u"The daemon said \"no.\""_s << u"The daemon said \"no.\""_s;
    QTest::newRow("ellipsis") << u"Timed out\u2026"_s << u"Timed out\u2026"_s;
    QTest::newRow("Chinese stop") << u"\u672a\u77e5\u9519\u8bef\u3002"_s << u"\u672a\u77e5\u9519\u8bef\u3002"_s;
    QTest::newRow("fullwidth colon") << u"\u672a\u77e5\u9519\u8bef\uff1a"_s << u"\u672a\u77e5\u9519\u8bef."_s;
}

void KeychainMessagesTest::sentenceEndsWordsThatLackAFullStop()
{
    QFETCH(QString, text);
    QFETCH(QString, expected);
    QCOMPARE(KeychainMessages::sentence(text), expected);
}

void KeychainMessagesTest::unreadableKeychainReadsAsSentencesWhateverItSays_data()
{
    QTest::addColumn<QString>("error");
    QTest::addColumn<QString>("expected");
    QTest::newRow("QtKeychain without a stop")
        << ReadFailed + u"Unknown error"_s
        << u"The system keychain cannot be read. Could not read the key for anthropic from the system keychain: "
           "Unknown error. Keys can still come from environment variables."_s;
    QTest::newRow("QtKeychain with a stop")
        << ReadFailed + u"Unknown error."_s
        << u"The system keychain cannot be read. Could not read the key for anthropic from the system keychain: "
           "Unknown error. Keys can still come from environment variables."_s;
    QTest::newRow("QtKeychain empty")
        << ReadFailed
        << u"The system keychain cannot be read. Could not read the key for anthropic from the system keychain. "
           "Keys can still come from environment variables."_s;
    QTest::newRow("no words at all")
        << QString() << u"The system keychain cannot be read. Keys can still come from environment variables."_s;
}

void KeychainMessagesTest::unreadableKeychainReadsAsSentencesWhateverItSays()
{
    QFETCH(QString, error);
    QFETCH(QString, expected);
    const QString message = KeychainMessages::unreadable(error);
    QCOMPARE(message, expected);
    verifyWholeSentences(message);
}

void KeychainMessagesTest::unsavedKeyReadsAsSentencesWhateverTheKeychainSays_data()
{
    QTest::addColumn<QString>("error");
    QTest::addColumn<QString>("why");
    QTest::newRow("without a stop") << u"No keychain service available"_s << u"No keychain service available. "_s;
    QTest::newRow("with a stop") << u"No keychain service available."_s << u"No keychain service available. "_s;
    QTest::newRow("empty") << QString() << QString();
}

void KeychainMessagesTest::unsavedKeyReadsAsSentencesWhateverTheKeychainSays()
{
    QFETCH(QString, error);
    QFETCH(QString, why);
    const QString message = KeychainMessages::keyNotSaved(u"Anthropic"_s, error, u"ANTHROPIC_API_KEY"_s);
    QCOMPARE(message, u"The key for Anthropic was not saved. "_s + why
                          + u"Without a keychain, set the environment variable ANTHROPIC_API_KEY to the key before "
                            "starting qcode (for example in your shell profile)."_s);
    verifyWholeSentences(message);
}

void KeychainMessagesTest::unremovedKeyReadsAsSentencesWhateverTheKeychainSays_data()
{
    QTest::addColumn<QString>("error");
    QTest::addColumn<QString>("expected");
    QTest::newRow("without a stop") << u"Access denied"_s
                                    << u"The key for DeepSeek was not removed from the system keychain. "
                                       "Access denied."_s;
    QTest::newRow("with a stop") << u"Access denied."_s
                                 << u"The key for DeepSeek was not removed from the system keychain. "
                                    "Access denied."_s;
    QTest::newRow("empty") << u"  "_s << u"The key for DeepSeek was not removed from the system keychain."_s;
}

void KeychainMessagesTest::unremovedKeyReadsAsSentencesWhateverTheKeychainSays()
{
    QFETCH(QString, error);
    QFETCH(QString, expected);
    const QString message = KeychainMessages::keyNotRemoved(u"DeepSeek"_s, error);
    QCOMPARE(message, expected);
    verifyWholeSentences(message);
}

void KeychainMessagesTest::placeholdersInTheKeychainsWordsAreNotFilledIn()
{
    // The keychain's text is data: a "%1" in it stays as it came.
    QCOMPARE(KeychainMessages::keyNotSaved(u"Lab"_s, u"Bad entry %1"_s, u"LAB_API_KEY"_s),
             u"The key for Lab was not saved. Bad entry %1. Without a keychain, set the environment variable "
             "LAB_API_KEY to the key before starting qcode (for example in your shell profile)."_s);
}

QTEST_GUILESS_MAIN(KeychainMessagesTest)
#include "tst_keychain_messages.moc"
