#include <QTest>

#include "TempDatabase.h"
#include "model/StreamingText.h"

using namespace Qt::StringLiterals;
using namespace qcode;
using namespace qcode::test;

class StreamingTextTest : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void collectsTheDeltasOfAnOpenTextPart()
    {
        StreamingText streaming;
        Part part = makeTextPart(u"ses_a"_s, u"msg_a"_s, QString());
        part.as<TextPart>()->time = PartTime{1, std::nullopt};
        streaming.partUpdated(part);
        streaming.partDelta(part.id, u"text"_s, u"Hel"_s);
        streaming.partDelta(part.id, u"text"_s, u"lo"_s);
        QCOMPARE(streaming.text(part.id), std::optional<QString>(u"Hello"_s));
    }

    void forgetsAPartOnceItsFinalFormComes()
    {
        StreamingText streaming;
        Part part = makeTextPart(u"ses_a"_s, u"msg_a"_s, QString());
        part.as<TextPart>()->time = PartTime{1, std::nullopt};
        streaming.partUpdated(part);
        part.as<TextPart>()->text = u"done"_s;
        part.as<TextPart>()->time = PartTime{1, 2};
        streaming.partUpdated(part);
        QCOMPARE(streaming.size(), 0);
        QVERIFY(!streaming.text(part.id));
    }

    void reasoningStreamsAndTheOtherPartsDoNot()
    {
        StreamingText streaming;
        Part reasoning{u"prt_r"_s, u"ses_a"_s, u"msg_a"_s, ReasoningPart{QString(), std::nullopt, PartTime{1, std::nullopt}}, {}};
        streaming.partUpdated(reasoning);
        streaming.partDelta(reasoning.id, u"text"_s, u"hmm"_s);
        // A user's text has no time: it never streams.
        streaming.partUpdated(makeTextPart(u"ses_a"_s, u"msg_a"_s, u"typed"_s));
        Part tool{u"prt_t"_s, u"ses_a"_s, u"msg_a"_s, ToolPart{}, {}};
        streaming.partUpdated(tool);
        QCOMPARE(streaming.size(), 1);

        Part read = reasoning;
        read.as<ReasoningPart>()->text = u"h"_s; // a stale saved prefix
        streaming.overlay(read);
        QCOMPARE(read.as<ReasoningPart>()->text, u"hmm"_s);
    }

    void deltasOfUnknownPartsAndOtherFieldsAreIgnored()
    {
        StreamingText streaming;
        streaming.partDelta(u"prt_unknown"_s, u"text"_s, u"x"_s);
        QCOMPARE(streaming.size(), 0);
        Part part = makeTextPart(u"ses_a"_s, u"msg_a"_s, QString());
        part.as<TextPart>()->time = PartTime{1, std::nullopt};
        streaming.partUpdated(part);
        streaming.partDelta(part.id, u"title"_s, u"x"_s);
        QCOMPARE(streaming.text(part.id), std::optional<QString>(QString()));
        streaming.partRemoved(part.id);
        QCOMPARE(streaming.size(), 0);
    }
};

QTEST_GUILESS_MAIN(StreamingTextTest)
#include "tst_streaming_text.moc"
