#include <QTest>

#include "TempDatabase.h"
#include "model/CompactionFilter.h"
#include "model/Identifier.h"

using namespace Qt::StringLiterals;
using namespace qcode;
using namespace qcode::test;

namespace {

const QString SessionID = u"ses_test"_s;

// A small conversation builder: each call appends one message, oldest first.
class Conversation
{
public:
    QString user(bool compaction = false)
    {
        const Message m = makeUserMessage(SessionID, ++m_clock);
        QList<Part> parts{makeTextPart(SessionID, m.id(), u"hi"_s)};
        if (compaction)
            parts.append(Part{Identifier::ascending(Identifier::Prefix::Part), SessionID, m.id(),
                              CompactionPart{false, std::nullopt}, {}});
        m_messages.append({m, parts});
        return m.id();
    }
    QString assistant(const QString &parent, bool summary, std::optional<QString> finish, bool error = false)
    {
        Message m = makeAssistantMessage(SessionID, parent, ++m_clock);
        m.assistant()->summary = summary ? std::optional(true) : std::nullopt;
        m.assistant()->finish = finish;
        if (error)
            m.assistant()->error = NamedError{u"APIError"_s, QJsonObject{{"message"_L1, "boom"_L1}}};
        m_messages.append({m, {}});
        return m.id();
    }
    QStringList visibleIds() const
    {
        QList<MessageWithParts> newestFirst(m_messages.rbegin(), m_messages.rend());
        QStringList ids;
        for (const MessageWithParts &m : filterCompacted(newestFirst))
            ids.append(m.info.id());
        return ids;
    }
    QStringList allIds() const
    {
        QStringList ids;
        for (const MessageWithParts &m : m_messages)
            ids.append(m.info.id());
        return ids;
    }

private:
    qint64 m_clock = 0;
    QList<MessageWithParts> m_messages;
};

} // namespace

class CompactionFilterTest : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void withoutCompactionTheWholeHistoryIsVisibleOldestFirst();
    void stopsAtTheUserMessageWhoseCompactionAFinishedSummaryAnswered();
    void anUnfinishedSummaryDoesNotHideHistory();
    void aSummaryThatFailedDoesNotHideHistory();
    void aCompactionRequestWithoutItsSummaryDoesNotHideHistory();
    void theNewestCompletedCompactionWins();
    void aSummaryOfAMessageWithoutACompactionPartDoesNotStop();
};

void CompactionFilterTest::withoutCompactionTheWholeHistoryIsVisibleOldestFirst()
{
    Conversation c;
    const QString u1 = c.user();
    c.assistant(u1, false, u"stop"_s);
    const QString u2 = c.user();
    c.assistant(u2, false, u"stop"_s);
    QCOMPARE(c.visibleIds(), c.allIds());
}

void CompactionFilterTest::stopsAtTheUserMessageWhoseCompactionAFinishedSummaryAnswered()
{
    Conversation c;
    const QString old = c.user();
    c.assistant(old, false, u"stop"_s);
    const QString request = c.user(true);
    const QString summary = c.assistant(request, true, u"stop"_s);
    const QString next = c.user();
    const QString answer = c.assistant(next, false, u"stop"_s);
    QCOMPARE(c.visibleIds(), (QStringList{request, summary, next, answer}));
}

void CompactionFilterTest::anUnfinishedSummaryDoesNotHideHistory()
{
    Conversation c;
    const QString old = c.user();
    const QString request = c.user(true);
    c.assistant(request, true, std::nullopt); // still streaming
    QCOMPARE(c.visibleIds().first(), old);
}

void CompactionFilterTest::aSummaryThatFailedDoesNotHideHistory()
{
    Conversation c;
    const QString old = c.user();
    const QString request = c.user(true);
    c.assistant(request, true, u"error"_s, true);
    QCOMPARE(c.visibleIds().first(), old);
}

void CompactionFilterTest::aCompactionRequestWithoutItsSummaryDoesNotHideHistory()
{
    Conversation c;
    const QString old = c.user();
    c.user(true);
    QCOMPARE(c.visibleIds(), c.allIds());
    QCOMPARE(c.visibleIds().first(), old);
}

void CompactionFilterTest::theNewestCompletedCompactionWins()
{
    Conversation c;
    const QString first = c.user(true);
    c.assistant(first, true, u"stop"_s);
    c.user();
    const QString second = c.user(true);
    const QString summary = c.assistant(second, true, u"stop"_s);
    QCOMPARE(c.visibleIds(), (QStringList{second, summary}));
}

void CompactionFilterTest::aSummaryOfAMessageWithoutACompactionPartDoesNotStop()
{
    Conversation c;
    const QString old = c.user();
    const QString plain = c.user();
    c.assistant(plain, true, u"stop"_s);
    QCOMPARE(c.visibleIds().first(), old);
}

QTEST_GUILESS_MAIN(CompactionFilterTest)
#include "tst_compaction_filter.moc"
