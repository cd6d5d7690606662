// PartWriter: deltas reach listeners at once, the database gets streamed
// text at part end and at most one flush interval after it arrived, and a
// writer that dies mid-stream leaves whole, valid rows holding the text of
// its last save.

#include <QElapsedTimer>
#include <QSignalSpy>
#include <QTest>

#include "RecordingEventSink.h"
#include "TempDatabase.h"
#include "engine/session/loop/PartWriter.h"
#include "model/Identifier.h"

using namespace Qt::StringLiterals;
using namespace std::chrono_literals;
using namespace qcode;
using namespace qcode::test;

namespace {

QString storedText(Store &store, const QString &messageID, const QString &partID)
{
    const auto parts = store.parts(messageID);
    if (!parts)
        return u"<unreadable: %1>"_s.arg(parts.errorMessage());
    for (const Part &part : *parts) {
        if (part.id == partID)
            return part.as<TextPart>() ? part.as<TextPart>()->text : u"<not text>"_s;
    }
    return u"<missing>"_s;
}

} // namespace

class PartWriterTest : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void init();
    void cleanup();

    void theBoundIsAQuarterSecondUnlessInjected();
    void deltasReachListenersAtOnceAndTheDatabaseOnlyAtTheEnd();
    void streamingTextIsSavedWithinTheFlushInterval();
    void aWriterDestroyedMidStreamLeavesTheTextOfItsLastSave();
    void aFloodOfDeltasIsNotOneWritePerDelta();
    void partsThatDoNotStreamCannotBeOpened();

private:
    Part textPart() const { return makeTextPart(m_sessionID, m_messageID, QString()); }

    std::unique_ptr<TempDatabase> m_db;
    std::unique_ptr<Store> m_store;   // the writer's connection
    std::unique_ptr<Store> m_reader;  // what another process (or the next start) would read
    std::unique_ptr<RecordingEventSink> m_sink;
    QString m_sessionID;
    QString m_messageID;
};

void PartWriterTest::init()
{
    m_sink = std::make_unique<RecordingEventSink>();
    m_db = std::make_unique<TempDatabase>();
    m_store = m_db->open();
    m_reader = m_db->open();
    QVERIFY(m_store && m_reader);
    QVERIFY(m_store->upsertProject(makeProject()));
    const Session session = makeSession();
    QVERIFY(m_store->upsertSession(session));
    const Message user = makeUserMessage(session.id);
    const Message assistant = makeAssistantMessage(session.id, user.id());
    QVERIFY(m_store->updateMessage(user));
    QVERIFY(m_store->updateMessage(assistant));
    m_sessionID = session.id;
    m_messageID = assistant.id();
}

void PartWriterTest::cleanup()
{
    m_reader.reset();
    m_store.reset();
    m_db.reset();
    m_sink.reset();
}

void PartWriterTest::theBoundIsAQuarterSecondUnlessInjected()
{
    QCOMPARE(PartWriter::DefaultFlushInterval, 250ms);
    PartWriter defaults(*m_store, *m_sink);
    QCOMPARE(defaults.flushInterval(), 250ms);
    PartWriter injected(*m_store, *m_sink, 10ms);
    QCOMPARE(injected.flushInterval(), 10ms);
}

void PartWriterTest::deltasReachListenersAtOnceAndTheDatabaseOnlyAtTheEnd()
{
    PartWriter writer(*m_store, *m_sink, 1h);
    const Part part = textPart();
    QVERIFY(writer.open(part));
    QCOMPARE(storedText(*m_reader, m_messageID, part.id), QString());

    QVERIFY(writer.append(part.id, u"Hel"_s));
    QVERIFY(writer.append(part.id, u"lo"_s));
    QCOMPARE(m_sink->deltaText(part.id), u"Hello"_s);
    QCOMPARE(m_sink->all<PartDelta>().first().field, u"text"_s);
    QCOMPARE(writer.openPart(part.id)->as<TextPart>()->text, u"Hello"_s);
    QCOMPARE(storedText(*m_reader, m_messageID, part.id), QString());

    Part final = *writer.openPart(part.id);
    QVERIFY(writer.close(final));
    QCOMPARE(storedText(*m_reader, m_messageID, part.id), u"Hello"_s);
    QVERIFY(!writer.openPart(part.id));
    // open, two deltas, close: the part's updates bracket its deltas.
    QCOMPARE(m_sink->types(), (QStringList{u"message.part.updated"_s, u"message.part.delta"_s,
                                          u"message.part.delta"_s, u"message.part.updated"_s}));
    QCOMPARE(m_sink->all<PartUpdated>().last().part.as<TextPart>()->text, u"Hello"_s);
}

void PartWriterTest::streamingTextIsSavedWithinTheFlushInterval()
{
    PartWriter writer(*m_store, *m_sink, 40ms);
    QSignalSpy persisted(&writer, &PartWriter::persisted);
    const Part part = textPart();
    QVERIFY(writer.open(part));

    QVERIFY(writer.append(part.id, u"streamed so far"_s));
    // Not one write per delta: the text waits for the interval.
    QCOMPARE(storedText(*m_reader, m_messageID, part.id), QString());
    // The stream stalls here: the timer saves the text anyway.
    QVERIFY(persisted.wait(5000));
    QCOMPARE(persisted.first().first().toString(), part.id);
    QCOMPARE(storedText(*m_reader, m_messageID, part.id), u"streamed so far"_s);
    // Saving in the background tells the database, not the listeners: they
    // have the text from the deltas.
    QCOMPARE(m_sink->all<PartUpdated>().size(), 1);
}

void PartWriterTest::aWriterDestroyedMidStreamLeavesTheTextOfItsLastSave()
{
    auto writer = std::make_unique<PartWriter>(*m_store, *m_sink, 30ms);
    QSignalSpy persisted(writer.get(), &PartWriter::persisted);
    const Part part = textPart();
    QVERIFY(writer->open(part));
    QVERIFY(writer->append(part.id, u"The first"_s));
    QVERIFY(writer->append(part.id, u" sentence."_s));
    QVERIFY(persisted.wait(5000));
    QVERIFY(writer->append(part.id, u" Lost in the crash"_s));

    writer.reset(); // as if the process died now

    QCOMPARE(storedText(*m_reader, m_messageID, part.id), u"The first sentence."_s);
    // The rows are whole: the message reads back with its part.
    const auto message = m_reader->message(m_messageID);
    QVERIFY2(message, qPrintable(message.errorMessage()));
    QVERIFY(message->has_value());
    QCOMPARE((*message)->parts.size(), 1);
    QCOMPARE((*message)->parts.first().id, part.id);
}

void PartWriterTest::aFloodOfDeltasIsNotOneWritePerDelta()
{
    const auto interval = 20ms;
    PartWriter writer(*m_store, *m_sink, interval);
    QSignalSpy persisted(&writer, &PartWriter::persisted);
    const Part part = textPart();
    QVERIFY(writer.open(part));

    QElapsedTimer clock;
    clock.start();
    QString expected;
    for (int i = 0; i < 5000; ++i) {
        const QString delta = u"w%1 "_s.arg(i);
        expected += delta;
        QVERIFY(writer.append(part.id, delta));
    }
    const qint64 elapsed = clock.elapsed();
    // Saves inside the loop happen only once an interval has passed.
    QVERIFY2(persisted.size() <= elapsed / interval.count() + 1,
             qPrintable(u"%1 saves in %2 ms"_s.arg(persisted.size()).arg(elapsed)));

    QTRY_COMPARE_WITH_TIMEOUT(storedText(*m_reader, m_messageID, part.id), expected, 5000);
    QCOMPARE(m_sink->all<PartDelta>().size(), 5000);
}

void PartWriterTest::partsThatDoNotStreamCannotBeOpened()
{
    PartWriter writer(*m_store, *m_sink);
    const Part tool{Identifier::ascending(Identifier::Prefix::Part), m_sessionID, m_messageID,
                    ToolPart{u"call_1"_s, u"read"_s, ToolPending{}, std::nullopt, {}}, {}};
    const auto opened = writer.open(tool);
    QVERIFY(!opened);
    QVERIFY(opened.errorMessage().contains(u"tool"_s));
    QVERIFY(!writer.append(tool.id, u"x"_s));
    QVERIFY(m_sink->events().isEmpty());
}

QTEST_GUILESS_MAIN(PartWriterTest)
#include "tst_part_writer.moc"
