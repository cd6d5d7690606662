// The question dialog (reference §8.11): a picked option, several picked,
// words of one's own, several questions on pages, and a dismissal, each
// answered exactly once.

#include <QAbstractButton>
#include <QCheckBox>
#include <QLineEdit>
#include <QPushButton>
#include <QRadioButton>
#include <QScrollArea>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTest>

#include "ui/permission/QuestionDialog.h"
#include "ui/permission/QuestionPage.h"

using namespace Qt::StringLiterals;
using namespace qcode;

namespace {

QuestionInfo colourQuestion(bool multiple = false)
{
    QuestionInfo question;
    question.header = u"Colour"_s;
    question.question = u"Which colour should the button be?"_s;
    question.options = {{u"Red"_s, u"Warm and loud"_s}, {u"Blue"_s, u"Calm"_s}, {u"Green"_s, {}}};
    question.multiple = multiple;
    return question;
}

QuestionRequest request(QList<QuestionInfo> questions)
{
    QuestionRequest request;
    request.id = u"que_1"_s;
    request.sessionID = u"ses_1"_s;
    request.questions = std::move(questions);
    return request;
}

QAbstractButton *choice(const QuestionDialog &dialog, int page, const QString &text)
{
    const auto *scroll = qobject_cast<QScrollArea *>(dialog.findChild<QTabWidget *>()->widget(page));
    for (QAbstractButton *button : qobject_cast<QuestionPage *>(scroll->widget())->choices()) {
        if (button->text() == text)
            return button;
    }
    return nullptr;
}

// Clicks where a person would: on the indicator, not in the empty space
// beyond the label, which a radio button or check box ignores.
void pick(QAbstractButton *button)
{
    QVERIFY(button);
    QTest::mouseClick(button, Qt::LeftButton, {}, QPoint(button->height() / 2, button->height() / 2));
}

QPushButton *button(const QuestionDialog &dialog, const QString &name)
{
    return dialog.findChild<QPushButton *>(name);
}

} // namespace

class QuestionDialogTest : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void init();
    void cleanup();

    void aPickedOptionIsTheAnswer();
    void severalMayBePickedWhenTheQuestionAllowsIt();
    void wordsOfOnesOwnAnswerAsOther();
    void submitWaitsUntilEveryQuestionHasAnAnswer();
    void dismissingAnswersNothingAndSaysSo();
    void enterAnswersAndNeverDismisses();
    void escapeDismisses();
    void aWithdrawnDialogAnswersNothing();

private:
    QuestionDialog *openDialog(const QuestionRequest &request);

    QWidget *m_window = nullptr;
};

void QuestionDialogTest::init()
{
    m_window = new QWidget;
    m_window->resize(800, 600);
    m_window->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_window));
}

void QuestionDialogTest::cleanup()
{
    delete m_window;
    m_window = nullptr;
}

QuestionDialog *QuestionDialogTest::openDialog(const QuestionRequest &request)
{
    auto *dialog = new QuestionDialog(request, u"Design the page"_s, m_window);
    dialog->open();
    return dialog;
}

void QuestionDialogTest::aPickedOptionIsTheAnswer()
{
    QuestionDialog *dialog = openDialog(request({colourQuestion()}));
    QCOMPARE(dialog->windowModality(), Qt::WindowModal);
    QSignalSpy answered(dialog, &QuestionDialog::answered);
    QVERIFY(!button(*dialog, u"submitButton"_s)->isEnabled());
    QAbstractButton *blue = choice(*dialog, 0, u"Blue"_s);
    QVERIFY(qobject_cast<QRadioButton *>(blue));
    pick(blue);
    QVERIFY(button(*dialog, u"submitButton"_s)->isEnabled());
    QTest::mouseClick(button(*dialog, u"submitButton"_s), Qt::LeftButton);
    QCOMPARE(answered.size(), 1);
    QCOMPARE(answered.first().at(0).toString(), u"que_1"_s);
    QCOMPARE(answered.first().at(1).value<QList<QStringList>>(), (QList<QStringList>{{u"Blue"_s}}));
    QVERIFY(!dialog->isVisible());
}

void QuestionDialogTest::severalMayBePickedWhenTheQuestionAllowsIt()
{
    QuestionDialog *dialog = openDialog(request({colourQuestion(true)}));
    QSignalSpy answered(dialog, &QuestionDialog::answered);
    QVERIFY(qobject_cast<QCheckBox *>(choice(*dialog, 0, u"Green"_s)));
    pick(choice(*dialog, 0, u"Green"_s));
    pick(choice(*dialog, 0, u"Red"_s));
    QTest::mouseClick(button(*dialog, u"submitButton"_s), Qt::LeftButton);
    QCOMPARE(answered.size(), 1);
    // In the options' order, whatever the order of the clicks.
    QCOMPARE(answered.first().at(1).value<QList<QStringList>>(), (QList<QStringList>{{u"Red"_s, u"Green"_s}}));
}

void QuestionDialogTest::wordsOfOnesOwnAnswerAsOther()
{
    QuestionDialog *dialog = openDialog(request({colourQuestion()}));
    QSignalSpy answered(dialog, &QuestionDialog::answered);
    pick(choice(*dialog, 0, u"Red"_s));
    auto *other = dialog->findChild<QLineEdit *>(u"otherEdit"_s);
    QTest::keyClicks(other, u"  Teal, like the logo "_s);
    // Typing picked "Other…" instead of Red.
    QVERIFY(!choice(*dialog, 0, u"Red"_s)->isChecked());
    QTest::keyClick(other, Qt::Key_Return);
    QCOMPARE(answered.size(), 1);
    QCOMPARE(answered.first().at(1).value<QList<QStringList>>(), (QList<QStringList>{{u"Teal, like the logo"_s}}));
}

void QuestionDialogTest::submitWaitsUntilEveryQuestionHasAnAnswer()
{
    QuestionInfo size;
    size.header = u"Size"_s;
    size.question = u"How large?"_s;
    size.options = {{u"Small"_s, {}}, {u"Large"_s, {}}};
    QuestionDialog *dialog = openDialog(request({colourQuestion(), size}));
    QSignalSpy answered(dialog, &QuestionDialog::answered);
    auto *tabs = dialog->findChild<QTabWidget *>();
    QCOMPARE(tabs->count(), 2);
    QCOMPARE(tabs->tabText(0), u"Colour"_s);
    QVERIFY(!button(*dialog, u"backButton"_s)->isEnabled());

    pick(choice(*dialog, 0, u"Green"_s));
    QVERIFY(!button(*dialog, u"submitButton"_s)->isEnabled());
    QCOMPARE(tabs->tabText(0), u"Colour ✓"_s);
    QTest::mouseClick(button(*dialog, u"nextButton"_s), Qt::LeftButton);
    QCOMPARE(tabs->currentIndex(), 1);
    QVERIFY(button(*dialog, u"backButton"_s)->isEnabled());
    QVERIFY(!button(*dialog, u"nextButton"_s)->isEnabled());
    pick(choice(*dialog, 1, u"Large"_s));
    QVERIFY(button(*dialog, u"submitButton"_s)->isEnabled());
    QTest::mouseClick(button(*dialog, u"submitButton"_s), Qt::LeftButton);
    QCOMPARE(answered.size(), 1);
    QCOMPARE(answered.first().at(1).value<QList<QStringList>>(),
             (QList<QStringList>{{u"Green"_s}, {u"Large"_s}}));
}

void QuestionDialogTest::enterAnswersAndNeverDismisses()
{
    QuestionDialog *dialog = openDialog(request({colourQuestion()}));
    QSignalSpy answered(dialog, &QuestionDialog::answered);
    QSignalSpy dismissed(dialog, &QuestionDialog::dismissed);
    QVERIFY(button(*dialog, u"submitButton"_s)->isDefault());
    QVERIFY(!button(*dialog, u"dismissButton"_s)->isDefault());
    QVERIFY(!button(*dialog, u"dismissButton"_s)->autoDefault());
    // Nothing chosen yet: Enter does nothing at all.
    QTest::keyClick(dialog, Qt::Key_Return);
    QCOMPARE(dismissed.size(), 0);
    QCOMPARE(answered.size(), 0);
    pick(choice(*dialog, 0, u"Green"_s));
    QTest::keyClick(dialog, Qt::Key_Return);
    QCOMPARE(answered.size(), 1);
    QCOMPARE(answered.first().at(1).value<QList<QStringList>>(), (QList<QStringList>{{u"Green"_s}}));
    QCOMPARE(dismissed.size(), 0);
}

void QuestionDialogTest::dismissingAnswersNothingAndSaysSo()
{
    QuestionDialog *dialog = openDialog(request({colourQuestion()}));
    QSignalSpy answered(dialog, &QuestionDialog::answered);
    QSignalSpy dismissed(dialog, &QuestionDialog::dismissed);
    pick(choice(*dialog, 0, u"Red"_s));
    QTest::mouseClick(button(*dialog, u"dismissButton"_s), Qt::LeftButton);
    QCOMPARE(dismissed.size(), 1);
    QCOMPARE(dismissed.first().at(0).toString(), u"que_1"_s);
    QCOMPARE(answered.size(), 0);
    QVERIFY(!dialog->isVisible());
}

void QuestionDialogTest::escapeDismisses()
{
    QuestionDialog *dialog = openDialog(request({colourQuestion()}));
    QVERIFY(QTest::qWaitForWindowExposed(dialog));
    QSignalSpy dismissed(dialog, &QuestionDialog::dismissed);
    QTest::keyClick(dialog->focusWidget() ? dialog->focusWidget() : dialog, Qt::Key_Escape);
    QCOMPARE(dismissed.size(), 1);
    dialog->reject();
    QCOMPARE(dismissed.size(), 1);
}

void QuestionDialogTest::aWithdrawnDialogAnswersNothing()
{
    QuestionDialog *dialog = openDialog(request({colourQuestion()}));
    QSignalSpy answered(dialog, &QuestionDialog::answered);
    QSignalSpy dismissed(dialog, &QuestionDialog::dismissed);
    dialog->withdraw();
    QVERIFY(!dialog->isVisible());
    dialog->reject();
    QCOMPARE(answered.size() + dismissed.size(), 0);
}

QTEST_MAIN(QuestionDialogTest)
#include "tst_question_dialog.moc"
