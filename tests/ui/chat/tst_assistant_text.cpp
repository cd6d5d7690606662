#include <QApplication>
#include <QClipboard>
#include <QLayout>
#include <QSignalSpy>
#include <QTest>
#include <QTextBlock>
#include <QTextLayout>
#include <QToolButton>

#include "ui/chat/PartWidgetFactory.h"
#include "ui/chat/markdown/MarkdownView.h"
#include "ui/chat/parts/AssistantTextWidget.h"
#include "ui/chat/parts/ReasoningWidget.h"
#include "ui/chat/parts/UserTextWidget.h"
#include "ui/highlight/CodeHighlighter.h"

using namespace Qt::StringLiterals;
using namespace qcode;

namespace {

const QString Code = u"int main() {\n    return 0; // done\n}"_s;
const QString Answer = u"Here is the **fix**:\n\n```cpp\n"_s + Code + u"\n```\n\nThat is all.\n"_s;

Part textPart(const QString &text)
{
    Part part;
    part.id = u"prt_1"_s;
    part.sessionID = u"ses_1"_s;
    part.messageID = u"msg_1"_s;
    part.body = TextPart{text, {}, {}, {}, {}};
    return part;
}

Part reasoningPart(const QString &text)
{
    Part part = textPart(QString());
    part.body = ReasoningPart{text, {}, PartTime{1000, {}}};
    return part;
}

Message assistant()
{
    AssistantMessage message;
    message.id = u"msg_1"_s;
    message.sessionID = u"ses_1"_s;
    return Message(message);
}

// Marks a block so the test can tell whether the document still holds this
// very block or a new one rendered in its place.
class Marker : public QTextBlockUserData
{
};

// The first block whose text is `text`.
QTextBlock blockWithText(const QTextDocument *document, const QString &text)
{
    for (QTextBlock block = document->begin(); block.isValid(); block = block.next()) {
        if (block.text() == text)
            return block;
    }
    return {};
}

// The position of the first Copy link.
int copyLinkPosition(const QTextDocument *document)
{
    for (QTextBlock block = document->begin(); block.isValid(); block = block.next()) {
        for (auto it = block.begin(); !it.atEnd(); ++it) {
            const QTextCharFormat format = it.fragment().charFormat();
            if (format.isAnchor() && format.anchorHref().startsWith(u"qcode-copy:"_s))
                return it.fragment().position();
        }
    }
    return -1;
}

} // namespace

class AssistantTextTest : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void anAssistantTextPartIsMarkdownAndAUserOneStaysPlain();
    void aFencedCodeBlockIsHighlighted();
    void itsCopyButtonPutsTheCodeOnTheClipboard();
    void aDeltaToALongAnswerRendersOnlyTheOpenBlock();
    void theFinishedPartTrimmedRendersNothingAgain();
    void aPartWhoseTextChangedIsShownAnew();
    void reasoningIsMarkdownOnceOpened();

private:
    ChatContext m_context;
};

void AssistantTextTest::initTestCase()
{
    m_context.highlighter = CodeHighlighter::create();
}

void AssistantTextTest::anAssistantTextPartIsMarkdownAndAUserOneStaysPlain()
{
    std::unique_ptr<PartWidget> answer(createPartWidget(textPart(Answer), assistant(), m_context, nullptr));
    auto *assistantText = qobject_cast<AssistantTextWidget *>(answer.get());
    QVERIFY(assistantText);
    QCOMPARE(assistantText->markdown(), Answer);
    const QString shown = assistantText->view()->toPlainText();
    QVERIFY(shown.startsWith(u"Here is the fix:"_s));
    QVERIFY(shown.contains(Code));
    QVERIFY(!shown.contains(u"```"_s));

    std::unique_ptr<PartWidget> typed(createPartWidget(textPart(Answer), Message(UserMessage{}), m_context, nullptr));
    QVERIFY(qobject_cast<UserTextWidget *>(typed.get()));
    QCOMPARE(typed->markdown(), Answer);
}

void AssistantTextTest::aFencedCodeBlockIsHighlighted()
{
    AssistantTextWidget widget(m_context);
    widget.setPart(textPart(Answer), assistant());
    const QTextBlock code = blockWithText(widget.view()->document(), u"    return 0; // done"_s);
    QVERIFY(code.isValid());
    QCOMPARE(code.blockFormat().stringProperty(QTextFormat::BlockCodeLanguage), u"cpp"_s);
    QVERIFY(code.charFormat().fontFixedPitch());
    const QTextBlock prose = blockWithText(widget.view()->document(), u"That is all."_s);
    QVERIFY(prose.layout()->formats().isEmpty());
    if (m_context.highlighter->backendName() == u"plain"_s)
        QSKIP("This build found no highlighting library; code is plain monospace");
    QTRY_VERIFY(!code.layout()->formats().isEmpty());
    // The keyword and the comment are coloured apart.
    QList<QTextLayout::FormatRange> ranges = code.layout()->formats();
    QVERIFY(std::any_of(ranges.begin(), ranges.end(), [&ranges](const QTextLayout::FormatRange &range) {
        return range.format.foreground() != ranges.first().format.foreground();
    }));
}

void AssistantTextTest::itsCopyButtonPutsTheCodeOnTheClipboard()
{
    AssistantTextWidget widget(m_context);
    widget.layout()->setSizeConstraint(QLayout::SetNoConstraint); // the offscreen platform warns of window minimums
    widget.resize(500, 300);
    widget.setPart(textPart(Answer), assistant());
    widget.show();
    QVERIFY(QTest::qWaitForWindowExposed(&widget));
    QGuiApplication::clipboard()->setText(u"something else"_s);
    MarkdownView *view = widget.view();
    QSignalSpy copied(view, &MarkdownView::codeCopied);
    const int link = copyLinkPosition(view->document());
    QVERIFY(link > 0);
    QTextCursor cursor(view->document());
    cursor.setPosition(link + 1);
    QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, view->cursorRect(cursor).center() - QPoint(2, 0));
    QTRY_COMPARE(copied.size(), 1);
    QCOMPARE(QGuiApplication::clipboard()->text(), Code);
    QCOMPARE(widget.markdown(), Answer);
}

void AssistantTextTest::aDeltaToALongAnswerRendersOnlyTheOpenBlock()
{
    QString text;
    for (int i = 0; i < 200; ++i)
        text += u"Paragraph %1 says something.\n\n"_s.arg(i);
    AssistantTextWidget widget(m_context);
    widget.setPart(textPart(text), assistant());
    MarkdownView *view = widget.view();
    QTextBlock early = blockWithText(view->document(), u"Paragraph 3 says something."_s);
    QVERIFY(early.isValid());
    auto *marker = new Marker;
    early.setUserData(marker); // the block owns it
    const int renders = view->renderedBlockCount();

    const QString open = u"The last paragraph, still being written"_s;
    for (qsizetype i = 0; i < open.size(); i += 4) {
        const QString delta = open.mid(i, 4);
        text += delta;
        widget.appendDelta(textPart(text), assistant(), u"text"_s, delta);
    }
    const int deltas = int((open.size() + 3) / 4);
    QCOMPARE(view->renderedBlockCount(), renders + deltas);
    QCOMPARE(blockWithText(view->document(), u"Paragraph 3 says something."_s).userData(), marker);
    QCOMPARE(view->document()->lastBlock().text(), open);
    QCOMPARE(widget.markdown(), text);

    // A code block opened at the end grows line by line; the paragraphs stay.
    const QString fence = u"\n\n```python\nprint(1)\nprint(2)\n"_s;
    text += fence;
    widget.appendDelta(textPart(text), assistant(), u"text"_s, fence);
    QCOMPARE(blockWithText(view->document(), u"Paragraph 3 says something."_s).userData(), marker);
    QCOMPARE(view->document()->lastBlock().text(), u"print(2)"_s);
}

void AssistantTextTest::theFinishedPartTrimmedRendersNothingAgain()
{
    AssistantTextWidget widget(m_context);
    const QString streamed = Answer + u"\n\n"_s;
    widget.appendDelta(textPart(streamed), assistant(), u"text"_s, streamed);
    const int renders = widget.view()->renderedBlockCount();
    const QString shown = widget.view()->toPlainText();
    widget.setPart(textPart(streamed.trimmed()), assistant());
    QCOMPARE(widget.view()->renderedBlockCount(), renders);
    QCOMPARE(widget.view()->toPlainText(), shown);
    QCOMPARE(widget.markdown(), streamed.trimmed());
}

void AssistantTextTest::aPartWhoseTextChangedIsShownAnew()
{
    AssistantTextWidget widget(m_context);
    widget.setPart(textPart(Answer), assistant());
    widget.setPart(textPart(u"Something *else* entirely."_s), assistant());
    QCOMPARE(widget.view()->toPlainText(), u"Something else entirely."_s);
    // A delta that does not continue what is shown (one was missed) shows the part's whole text.
    widget.appendDelta(textPart(u"Fresh start, then more"_s), assistant(), u"text"_s, u" more"_s);
    QCOMPARE(widget.view()->toPlainText(), u"Fresh start, then more"_s);
    QCOMPARE(widget.markdown(), u"Fresh start, then more"_s);
}

void AssistantTextTest::reasoningIsMarkdownOnceOpened()
{
    ReasoningWidget widget(m_context);
    widget.setPart(reasoningPart(u"First I **check** the file.\n\n"_s), assistant());
    QVERIFY(widget.body()->markdown().isEmpty()); // nothing rendered while collapsed
    widget.findChild<QToolButton *>(u"reasoningHeader"_s)->click();
    QVERIFY(widget.isExpanded());
    QCOMPARE(widget.body()->toPlainText(), u"First I check the file."_s);
    const int renders = widget.body()->renderedBlockCount();
    widget.appendDelta(reasoningPart(u"First I **check** the file.\n\nThen"_s), assistant(), u"text"_s, u"Then"_s);
    QCOMPARE(widget.body()->renderedBlockCount(), renders + 1);
    QCOMPARE(widget.body()->document()->lastBlock().text(), u"Then"_s);
}

QTEST_MAIN(AssistantTextTest)
#include "tst_assistant_text.moc"
