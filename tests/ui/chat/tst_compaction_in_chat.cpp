#include <QFrame>
#include <QLabel>
#include <QTest>
#include <QToolButton>

#include "ui/chat/MessageWidget.h"
#include "ui/chat/parts/AssistantTextWidget.h"
#include "ui/chat/parts/CompactionDivider.h"

using namespace Qt::StringLiterals;
using namespace qcode;

namespace {

Part part(const QString &messageID, PartBody body)
{
    Part part;
    part.id = u"prt_"_s + messageID;
    part.sessionID = u"ses_1"_s;
    part.messageID = messageID;
    part.body = std::move(body);
    return part;
}

MessageWithParts compactionRequest(bool automatic)
{
    UserMessage message;
    message.id = u"msg_1"_s;
    message.sessionID = u"ses_1"_s;
    return MessageWithParts{Message(message), {part(message.id, CompactionPart{automatic, std::nullopt})}};
}

MessageWithParts answer(const QString &text, bool summary)
{
    AssistantMessage message;
    message.id = u"msg_2"_s;
    message.sessionID = u"ses_1"_s;
    message.parentID = u"msg_1"_s;
    if (summary)
        message.summary = true;
    return MessageWithParts{Message(message), {part(message.id, TextPart{text, {}, {}, {}, {}})}};
}

template<typename T>
T *child(QWidget *parent, const QString &name)
{
    T *found = parent->findChild<T *>(name);
    if (!found)
        qFatal("no %s named %s", T::staticMetaObject.className(), qPrintable(name));
    return found;
}

} // namespace

// Compaction in the chat (issue 19, point 11): the request is a divider
// that says earlier messages were summarised; the summary is folded.
class CompactionInChatTest : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void aCompactionRequestIsADividerNotABubble()
    {
        MessageWidget widget{ChatContext{}};
        widget.setMessage(compactionRequest(true));
        widget.resize(600, 200);
        widget.show();
        QVERIFY(QTest::qWaitForWindowExposed(&widget));

        auto *divider = child<CompactionDivider>(&widget, u"compactionDivider"_s);
        QVERIFY(divider->isVisible());
        QCOMPARE(divider->text(), u"Earlier messages summarised here"_s);
        QVERIFY(!child<QLabel>(divider, u"compactionLabel"_s)->toolTip().isEmpty());
        // The person did not write these words: no bubble around them.
        QVERIFY(!child<QFrame>(&widget, u"messageBody"_s)->autoFillBackground());
        QVERIFY(widget.markdown().contains(u"Earlier messages summarised here"_s));
    }

    void theSummaryIsFoldedUntilOpened()
    {
        MessageWidget widget{ChatContext{}};
        widget.setMessage(answer(u"We fixed the parser."_s, true));
        widget.resize(600, 300);
        widget.show();
        QVERIFY(QTest::qWaitForWindowExposed(&widget));

        auto *toggle = child<QToolButton>(&widget, u"summaryToggle"_s);
        auto *body = child<QFrame>(&widget, u"messageBody"_s);
        QVERIFY(toggle->isVisible());
        QCOMPARE(toggle->text(), u"Summary of the earlier conversation"_s);
        QVERIFY(!body->isVisible());
        const int folded = widget.heightForWidth(600);

        QTest::mouseClick(toggle, Qt::LeftButton);
        QVERIFY(body->isVisible());
        QVERIFY(body->findChild<AssistantTextWidget *>()->isVisible());
        QVERIFY(widget.heightForWidth(600) > folded);

        QTest::mouseClick(toggle, Qt::LeftButton);
        QVERIFY(!body->isVisible());
        // Copying the message still copies the summary.
        QVERIFY(widget.markdown().contains(u"We fixed the parser."_s));
    }

    void anOrdinaryAnswerIsNotFolded()
    {
        MessageWidget widget{ChatContext{}};
        widget.setMessage(answer(u"Done."_s, false));
        widget.show();
        QVERIFY(QTest::qWaitForWindowExposed(&widget));
        QVERIFY(!child<QToolButton>(&widget, u"summaryToggle"_s)->isVisible());
        QVERIFY(child<QFrame>(&widget, u"messageBody"_s)->isVisible());
    }
};

QTEST_MAIN(CompactionInChatTest)
#include "tst_compaction_in_chat.moc"
