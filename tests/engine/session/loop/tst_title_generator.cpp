// TitleGenerator (reference §2.11): which sessions get a title, what the
// title agent reads, how its answer becomes a title of at most 50
// characters (qcode's limit; OpenCode's is 100), and a title generated
// against FakeProviderServer, saved and published — or, when the provider
// fails or says nothing, the title left as it was.

#include <QNetworkAccessManager>
#include <QTest>

#include <QCoro/QCoroTask>

#include <memory>

#include "FakeProviderServer.h"
#include "RecordingEventSink.h"
#include "TempDatabase.h"
#include "engine/network/ProviderClient.h"
#include "engine/session/loop/TitleGenerator.h"
#include "model/Identifier.h"

using namespace Qt::StringLiterals;
using namespace std::chrono_literals;
using namespace qcode;
using namespace qcode::test;

namespace {

const qint64 Created = QDateTime(QDate(2026, 12, 2), QTime(11, 0, 5, 42), Qt::UTC).toMSecsSinceEpoch();

MessageWithParts userWith(const QString &sessionID, QList<PartBody> bodies)
{
    MessageWithParts message{makeUserMessage(sessionID), {}};
    for (PartBody &body : bodies)
        message.parts.append(Part{Identifier::ascending(Identifier::Prefix::Part), sessionID, message.info.id(),
                                  std::move(body), {}});
    return message;
}

TextPart text(const QString &value, bool synthetic = false)
{
    TextPart part;
    part.text = value;
    if (synthetic)
        part.synthetic = true;
    return part;
}

MessageWithParts assistantSaying(const QString &sessionID, const QString &parentID, const QString &value)
{
    MessageWithParts message{makeAssistantMessage(sessionID, parentID), {}};
    message.parts.append(
        Part{Identifier::ascending(Identifier::Prefix::Part), sessionID, message.info.id(), text(value), {}});
    return message;
}

QString textOf(const ModelMessage &message)
{
    QStringList texts;
    for (const ContentPart &part : message.content)
        if (const auto *t = std::get_if<TextContent>(&part))
            texts.append(t->text);
    return texts.join(u'\n');
}

HttpStreamLimits quickLimits()
{
    HttpStreamLimits limits;
    limits.connectTimeout = 10s;
    limits.idleTimeout = 10s;
    return limits;
}

} // namespace

class TitleGeneratorTest : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void init();
    void cleanup();

    void cleanTakesTheFirstLineWithoutThinking_data();
    void cleanTakesTheFirstLineWithoutThinking();
    void longTitlesAreCutAtAWordToFiftyCharacters();
    void defaultTitlesHaveOpenCodesForm();
    void isDefaultTitleMatchesOnlyThatForm_data();
    void isDefaultTitleMatchesOnlyThatForm();

    void aNewSessionAfterItsFirstMessageNeedsATitle();
    void childSessionsNeverGetATitle();
    void aTitleThePersonChoseIsKept();
    void aSecondMessageIsTooLateForATitle();
    void syntheticMessagesDoNotCount();

    void theRequestHoldsTheHistoryUpToTheFirstRealMessage();
    void aSubtaskOnlyMessageGivesItsPrompts();

    void generateSavesAndPublishesTheCleanedTitle();
    void generateKeepsALongAnswerToFiftyCharacters();
    void aProviderErrorLeavesTheTitle();
    void anAnswerWithoutATitleLeavesTheTitle();
    void aRenameWhileTheModelAnswersWins();
    void aSessionThatNeedsNoTitleMakesNoCall();
    void anUnknownSessionIsAnError();
    void withoutATitleModelTheFirstWordsOfThePromptNameTheSession();

private:
    void save(const MessageWithParts &message);
    TitleGenerator::StartCall startCall();
    Result<QString> generate(TitleGenerator::StartCall start);
    Result<QString> generate() { return generate(startCall()); }
    QString storedTitle();

    std::unique_ptr<TempDatabase> m_db;
    std::unique_ptr<Store> m_store;
    std::unique_ptr<RecordingEventSink> m_sink;
    std::unique_ptr<FakeProviderServer> m_server;
    QNetworkAccessManager m_manager;
    Session m_session;
    QList<QList<ModelMessage>> m_sent; // what each call was asked
};

void TitleGeneratorTest::init()
{
    m_db = std::make_unique<TempDatabase>();
    m_store = m_db->open();
    QVERIFY(m_store);
    QVERIFY(m_store->upsertProject(makeProject()));
    m_session = makeSession();
    QVERIFY(m_store->upsertSession(m_session));
    m_sink = std::make_unique<RecordingEventSink>();
    m_server = std::make_unique<FakeProviderServer>();
    QVERIFY(m_server->isListening());
    m_sent.clear();
}

void TitleGeneratorTest::cleanup()
{
    m_server.reset();
    m_sink.reset();
    m_store.reset();
    m_db.reset();
}

void TitleGeneratorTest::save(const MessageWithParts &message)
{
    QVERIFY(m_store->updateMessage(message.info));
    for (const Part &part : message.parts)
        QVERIFY(m_store->updatePart(part));
}

TitleGenerator::StartCall TitleGeneratorTest::startCall()
{
    ProviderEndpoint endpoint;
    endpoint.protocol = WireProtocol::AnthropicMessages;
    endpoint.providerId = u"anthropic"_s;
    endpoint.modelId = u"fake-small"_s;
    QUrl base = m_server->baseUrl();
    base.setPath(u"/v1"_s);
    endpoint.baseUrl = base;
    endpoint.apiKey = u"test-key"_s;
    QNetworkAccessManager *manager = &m_manager;
    auto *sent = &m_sent;
    return [manager, endpoint, sent](QObject *owner, QList<ModelMessage> messages) -> Result<ProviderCall *> {
        sent->append(messages);
        ProviderRequest request;
        request.endpoint = endpoint;
        request.system = {u"You write titles."_s};
        request.messages = std::move(messages);
        return ProviderClient(manager, quickLimits()).stream(request, owner);
    };
}

Result<QString> TitleGeneratorTest::generate(TitleGenerator::StartCall start)
{
    auto result = std::make_shared<std::optional<Result<QString>>>();
    QCoro::connect(TitleGenerator::generate(*m_store, *m_sink, m_session.id, std::move(start)), this,
                   [result](Result<QString> r) { *result = std::move(r); });
    if (!QTest::qWaitFor([result] { return result->has_value(); }, 15000))
        return Error{u"generate() did not finish"_s};
    return **result;
}

QString TitleGeneratorTest::storedTitle()
{
    const auto session = m_store->session(m_session.id);
    return session && *session ? (*session)->title : u"<no session>"_s;
}

void TitleGeneratorTest::cleanTakesTheFirstLineWithoutThinking_data()
{
    QTest::addColumn<QString>("output");
    QTest::addColumn<QString>("title");

    QTest::newRow("plain") << u"Login page 500 errors"_s << u"Login page 500 errors"_s;
    QTest::newRow("surrounding space") << u"  \n\n  API rate limiting \n"_s << u"API rate limiting"_s;
    QTest::newRow("first line only") << u"Payment refactor\nBecause the user asked"_s << u"Payment refactor"_s;
    QTest::newRow("crlf") << u"\r\nbuild.gradle CI failure\r\nmore"_s << u"build.gradle CI failure"_s;
    QTest::newRow("think block") << u"<think>The user wants a title.\nLet me think.</think>\nPostgres connection"_s
                                 << u"Postgres connection"_s;
    QTest::newRow("two think blocks") << u"<think>a</think> <think>b</think>Greeting"_s << u"Greeting"_s;
    QTest::newRow("unclosed think") << u"Draft\n<think>still thinking"_s << u"Draft"_s;
    QTest::newRow("only an unclosed think") << u"<think>never finished"_s << QString();
    QTest::newRow("only thinking") << u"<think>nothing else</think>"_s << QString();
    QTest::newRow("empty") << QString() << QString();
    QTest::newRow("blank lines") << u"\n \n\t\n"_s << QString();
    QTest::newRow("quoted") << u"\"Fix flaky test\""_s << u"Fix flaky test"_s;
    QTest::newRow("curly quotes") << QStringLiteral("\u201CFix flaky test\u201D") << u"Fix flaky test"_s;
    QTest::newRow("inner whitespace") << u"Fix\t flaky   test"_s << u"Fix flaky test"_s;
    QTest::newRow("exactly fifty") << QString(50, u'a') << QString(50, u'a');
}

void TitleGeneratorTest::cleanTakesTheFirstLineWithoutThinking()
{
    QFETCH(QString, output);
    QFETCH(QString, title);
    QCOMPARE(TitleGenerator::clean(output), title);
}

void TitleGeneratorTest::longTitlesAreCutAtAWordToFiftyCharacters()
{
    const QString words = u"Investigate intermittent failures of the payment service integration tests on CI"_s;
    const QString cut = TitleGenerator::clean(words);
    QVERIFY(cut.size() <= TitleGenerator::MaxLength);
    QCOMPARE(cut, QStringLiteral("Investigate intermittent failures of the payment\u2026"));

    // One word longer than the limit is cut inside it.
    const QString word = QString(120, u'x');
    QCOMPARE(TitleGenerator::clean(word), QString(49, u'x') + QChar(0x2026));

    // A cut never splits a character outside the BMP in two.
    const QString emoji = QStringLiteral("\U0001F600");
    const QString faces = QString(48, u'y') + emoji + u" and more words here"_s;
    const QString safe = TitleGenerator::clean(faces);
    QCOMPARE(safe, QString(48, u'y') + QChar(0x2026));

    // OpenCode's 100-character form never gets through.
    const QString hundred = QString(20, u'w') + u" "_s + QString(90, u'v');
    QVERIFY(TitleGenerator::clean(hundred).size() <= TitleGenerator::MaxLength);
    QVERIFY(TitleGenerator::clean(hundred).endsWith(QChar(0x2026)));
}

void TitleGeneratorTest::defaultTitlesHaveOpenCodesForm()
{
    QCOMPARE(TitleGenerator::defaultTitle(Created, false), u"New session - 2026-12-02T11:00:05.042Z"_s);
    QCOMPARE(TitleGenerator::defaultTitle(Created, true), u"Child session - 2026-12-02T11:00:05.042Z"_s);
    QVERIFY(TitleGenerator::isDefaultTitle(TitleGenerator::defaultTitle(Created, false)));
    QVERIFY(TitleGenerator::isDefaultTitle(TitleGenerator::defaultTitle(Created, true)));
}

void TitleGeneratorTest::isDefaultTitleMatchesOnlyThatForm_data()
{
    QTest::addColumn<QString>("title");
    QTest::addColumn<bool>("isDefault");

    QTest::newRow("new") << u"New session - 2026-01-01T00:00:00.000Z"_s << true;
    QTest::newRow("child") << u"Child session - 1999-12-31T23:59:59.999Z"_s << true;
    QTest::newRow("chosen") << u"Fix the login page"_s << false;
    QTest::newRow("no milliseconds") << u"New session - 2026-01-01T00:00:00Z"_s << false;
    QTest::newRow("offset, not Z") << u"New session - 2026-01-01T00:00:00.000+01:00"_s << false;
    QTest::newRow("text after") << u"New session - 2026-01-01T00:00:00.000Z renamed"_s << false;
    QTest::newRow("lower case") << u"new session - 2026-01-01T00:00:00.000Z"_s << false;
    QTest::newRow("non-ASCII digits") << QStringLiteral("New session - \u0662\u0660\u0662\u0666-01-01T00:00:00.000Z")
                                      << false;
    QTest::newRow("empty") << QString() << false;
}

void TitleGeneratorTest::isDefaultTitleMatchesOnlyThatForm()
{
    QFETCH(QString, title);
    QFETCH(bool, isDefault);
    QCOMPARE(TitleGenerator::isDefaultTitle(title), isDefault);
}

void TitleGeneratorTest::withoutATitleModelTheFirstWordsOfThePromptNameTheSession()
{
    const MessageWithParts first =
        userWith(m_session.id, {text(u"  please fix the flaky\nbuild on the CI server before Friday"_s)});
    QCOMPARE(TitleGenerator::fromPrompt({first}), u"please fix the flaky build on the CI…"_s);
    QCOMPARE(TitleGenerator::fromPrompt({userWith(m_session.id, {text(u"hello"_s)})}), u"hello"_s);
    QVERIFY(TitleGenerator::fromPrompt({}).isEmpty());

    save(first);
    const Result<QString> named = TitleGenerator::apply(*m_store, *m_sink, m_session.id, TitleGenerator::fromPrompt({first}));
    QVERIFY(named);
    QCOMPARE(storedTitle(), u"please fix the flaky build on the CI…"_s);
    QCOMPARE(m_sink->all<SessionUpdated>().size(), 1);
    // A title that is no longer the default stays.
    QCOMPARE(*TitleGenerator::apply(*m_store, *m_sink, m_session.id, u"other"_s), u"please fix the flaky build on the CI…"_s);
}

void TitleGeneratorTest::aNewSessionAfterItsFirstMessageNeedsATitle()
{
    const MessageWithParts first = userWith(m_session.id, {text(u"fix the build"_s)});
    QVERIFY(TitleGenerator::needsTitle(m_session, {first}));
    QVERIFY(TitleGenerator::needsTitle(m_session, {first, assistantSaying(m_session.id, first.info.id(), u"ok"_s)}));
    QVERIFY(!TitleGenerator::needsTitle(m_session, {}));
}

void TitleGeneratorTest::childSessionsNeverGetATitle()
{
    Session child = makeSession(u"global"_s, m_session.id);
    child.title = TitleGenerator::defaultTitle(Created, true);
    QVERIFY(!TitleGenerator::needsTitle(child, {userWith(child.id, {text(u"explore the code"_s)})}));
}

void TitleGeneratorTest::aTitleThePersonChoseIsKept()
{
    Session named = m_session;
    named.title = u"My refactor"_s;
    QVERIFY(!TitleGenerator::needsTitle(named, {userWith(named.id, {text(u"refactor it"_s)})}));
}

void TitleGeneratorTest::aSecondMessageIsTooLateForATitle()
{
    const MessageWithParts first = userWith(m_session.id, {text(u"one"_s)});
    const MessageWithParts second = userWith(m_session.id, {text(u"two"_s)});
    QVERIFY(!TitleGenerator::needsTitle(
        m_session, {first, assistantSaying(m_session.id, first.info.id(), u"ok"_s), second}));
}

void TitleGeneratorTest::syntheticMessagesDoNotCount()
{
    const MessageWithParts added = userWith(m_session.id, {text(u"Continue if you have next steps"_s, true)});
    QVERIFY(!TitleGenerator::needsTitle(m_session, {added}));
    const MessageWithParts empty = userWith(m_session.id, {});
    QVERIFY(!TitleGenerator::needsTitle(m_session, {empty}));
    // A message with one part the person wrote is theirs, whatever qcode
    // added next to it.
    const MessageWithParts mixed =
        userWith(m_session.id, {text(u"Called the Read tool"_s, true), text(u"explain this file"_s)});
    QVERIFY(TitleGenerator::needsTitle(m_session, {added, mixed}));
}

void TitleGeneratorTest::theRequestHoldsTheHistoryUpToTheFirstRealMessage()
{
    const MessageWithParts added = userWith(m_session.id, {text(u"The following tool was executed"_s, true)});
    MessageWithParts first = userWith(m_session.id, {text(u"why does the build fail"_s)});
    first.parts.append(Part{Identifier::ascending(Identifier::Prefix::Part), m_session.id, first.info.id(),
                            FilePart{u"image/png"_s, u"log.png"_s, u"data:image/png;base64,iVBORw0KGgo="_s,
                                     std::nullopt},
                            {}});
    const MessageWithParts answer = assistantSaying(m_session.id, first.info.id(), u"Because of X"_s);

    const QList<ModelMessage> request =
        TitleGenerator::request({added, first, answer}, ModelTarget{u"anthropic"_s, u"fake-small"_s, true});
    QVERIFY(request.size() >= 2);
    QCOMPARE(request.first().role, ModelRole::User);
    QCOMPARE(textOf(request.first()), u"Generate a title for this conversation:\n"_s);
    QStringList all;
    for (const ModelMessage &message : request) {
        QVERIFY(message.role != ModelRole::Assistant);
        all.append(textOf(message));
        for (const ContentPart &part : message.content)
            QVERIFY(!std::holds_alternative<FileContent>(part));
    }
    const QString joined = all.join(u'\n');
    QVERIFY(joined.contains("The following tool was executed"_L1));
    QVERIFY(joined.contains("why does the build fail"_L1));
    QVERIFY(joined.contains("[Attached image/png: log.png]"_L1));
    QVERIFY(!joined.contains("Because of X"_L1));

    QVERIFY(TitleGenerator::request({added}, {}).isEmpty());
}

void TitleGeneratorTest::aSubtaskOnlyMessageGivesItsPrompts()
{
    const MessageWithParts command = userWith(
        m_session.id, {SubtaskPart{u"Review the diff"_s, u"review"_s, u"general"_s, std::nullopt, u"review"_s},
                       SubtaskPart{u"and list risks"_s, u"risks"_s, u"general"_s, std::nullopt, std::nullopt}});
    const QList<ModelMessage> request = TitleGenerator::request({command}, {});
    QCOMPARE(request.size(), 2);
    QCOMPARE(textOf(request.at(1)), u"Review the diff\nand list risks"_s);
}

void TitleGeneratorTest::generateSavesAndPublishesTheCleanedTitle()
{
    save(userWith(m_session.id, {text(u"the login page returns 500 after deploy"_s)}));
    m_server->enqueue(FakeTurn().text({u"<think>short</think>\n"_s, u"Login page 500 "_s, u"after deploy\nextra"_s}));

    const Result<QString> title = generate();
    QVERIFY2(title, qPrintable(title.errorMessage()));
    QCOMPARE(*title, u"Login page 500 after deploy"_s);
    QCOMPARE(storedTitle(), *title);
    const QList<SessionUpdated> updates = m_sink->all<SessionUpdated>();
    QCOMPARE(updates.size(), 1);
    QCOMPARE(updates.first().info.title, *title);
    QCOMPARE(updates.first().info.time.updated, m_session.time.updated);

    QCOMPARE(m_server->requests().size(), 1);
    const QString body = QString::fromUtf8(m_server->requests().first().body);
    QVERIFY(body.contains("Generate a title for this conversation:"_L1));
    QVERIFY(body.contains("the login page returns 500 after deploy"_L1));
    QVERIFY(!body.contains("\"tools\""_L1));
}

void TitleGeneratorTest::generateKeepsALongAnswerToFiftyCharacters()
{
    save(userWith(m_session.id, {text(u"long"_s)}));
    m_server->enqueue(FakeTurn().text({u"Investigate intermittent failures of the payment service integration"_s}));
    const Result<QString> title = generate();
    QVERIFY(title);
    QVERIFY(title->size() <= TitleGenerator::MaxLength);
    QVERIFY(title->endsWith(QChar(0x2026)));
    QCOMPARE(storedTitle(), *title);
}

void TitleGeneratorTest::aProviderErrorLeavesTheTitle()
{
    save(userWith(m_session.id, {text(u"hello"_s)}));
    m_server->enqueue(FakeTurn::httpError(
        401, QByteArrayLiteral("{\"type\":\"error\",\"error\":{\"type\":\"authentication_error\","
                               "\"message\":\"invalid x-api-key\"}}")));
    const Result<QString> title = generate();
    QVERIFY(!title);
    QVERIFY(!title.errorMessage().isEmpty());
    QCOMPARE(storedTitle(), m_session.title);
    QVERIFY(m_sink->all<SessionUpdated>().isEmpty());
}

void TitleGeneratorTest::anAnswerWithoutATitleLeavesTheTitle()
{
    save(userWith(m_session.id, {text(u"hello"_s)}));
    m_server->enqueue(FakeTurn().text({u"<think>hmm</think>\n  \n"_s}));
    const Result<QString> title = generate();
    QVERIFY(!title);
    QCOMPARE(storedTitle(), m_session.title);
    QVERIFY(m_sink->all<SessionUpdated>().isEmpty());
}

void TitleGeneratorTest::aRenameWhileTheModelAnswersWins()
{
    save(userWith(m_session.id, {text(u"hello"_s)}));
    m_server->enqueue(FakeTurn().text({u"Greeting"_s}));
    TitleGenerator::StartCall start = startCall();
    Store *store = m_store.get();
    Session renamed = m_session;
    renamed.title = u"Chosen by me"_s;
    // The person renames the session just as the call goes out.
    const TitleGenerator::StartCall renaming = [start, store, renamed](QObject *owner, QList<ModelMessage> messages) {
        if (Result<void> saved = store->upsertSession(renamed); !saved)
            return Result<ProviderCall *>(saved.error());
        return start(owner, std::move(messages));
    };
    const Result<QString> title = generate(renaming);
    QVERIFY(title);
    QCOMPARE(*title, u"Chosen by me"_s);
    QCOMPARE(storedTitle(), u"Chosen by me"_s);
    QVERIFY(m_sink->all<SessionUpdated>().isEmpty());
}

void TitleGeneratorTest::aSessionThatNeedsNoTitleMakesNoCall()
{
    const MessageWithParts first = userWith(m_session.id, {text(u"one"_s)});
    save(first);
    save(assistantSaying(m_session.id, first.info.id(), u"ok"_s));
    save(userWith(m_session.id, {text(u"two"_s)}));
    const Result<QString> title = generate();
    QVERIFY(title);
    QCOMPARE(*title, m_session.title);
    QVERIFY(m_sent.isEmpty());
    QVERIFY(m_server->requests().isEmpty());
}

void TitleGeneratorTest::anUnknownSessionIsAnError()
{
    m_session.id = Identifier::descending(Identifier::Prefix::Session);
    const Result<QString> title = generate();
    QVERIFY(!title);
    QVERIFY(title.errorMessage().contains(m_session.id));
    QVERIFY(m_sent.isEmpty());
}

QTEST_GUILESS_MAIN(TitleGeneratorTest)
#include "tst_title_generator.moc"
