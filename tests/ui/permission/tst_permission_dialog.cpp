// The permission dialog (reference §9): what it shows for each kind of ask,
// and that every way of answering sends exactly the answer the person chose.

#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScreen>
#include <QScrollBar>
#include <QSignalSpy>
#include <QTest>

#include "ui/permission/PermissionDiffBox.h"
#include "ui/permission/PermissionDescription.h"
#include "ui/permission/PermissionDialog.h"

using namespace Qt::StringLiterals;
using namespace qcode;

namespace {

PermissionRequest request(const QString &permission, const QStringList &patterns, const QStringList &always,
                          const QJsonObject &metadata)
{
    return PermissionRequest{u"per_"_s + permission, u"ses_1"_s, permission, patterns, metadata, always, std::nullopt};
}

PermissionRequest bashRequest()
{
    return request(u"bash"_s, {u"git status --short"_s}, {u"git status *"_s},
                   {{u"command"_s, u"git status --short"_s}, {u"description"_s, u"Show changes"_s}});
}

PermissionRequest editRequest()
{
    const QString diff = u"Index: /project/src/main.cpp\n"
                         "===================================================================\n"
                         "--- /project/src/main.cpp\n"
                         "+++ /project/src/main.cpp\n"
                         "@@ -1,2 +1,2 @@\n"
                         " int main()\n"
                         "-{ return 1; }\n"
                         "+{ return 0; }\n"_s;
    return request(u"edit"_s, {u"src/main.cpp"_s}, {u"*"_s},
                   {{u"filepath"_s, u"/project/src/main.cpp"_s}, {u"diff"_s, diff}});
}

PermissionRequest externalRequest()
{
    return request(u"external_directory"_s, {u"/etc/ssh/*"_s}, {u"/etc/ssh/*"_s},
                   {{u"filepath"_s, u"/etc/ssh/sshd_config"_s}, {u"parentDir"_s, u"/etc/ssh"_s}});
}

// Every text the dialog shows in a box or a label, for "is it visible" checks.
QStringList shownTexts(const QDialog &dialog)
{
    QStringList texts;
    for (const QPlainTextEdit *box : dialog.findChildren<QPlainTextEdit *>())
        texts.append(box->toPlainText());
    for (const QLabel *label : dialog.findChildren<QLabel *>())
        texts.append(label->text());
    return texts;
}

QPushButton *button(const QDialog &dialog, const QString &name)
{
    return dialog.findChild<QPushButton *>(name);
}

} // namespace

class PermissionDialogTest : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void init();
    void cleanup();

    void showsTheCommandItWouldRunInPlainWords();
    void showsAnEditsDiffWithColouredLines();
    void diffColoursFollowTheTheme();
    void showsThePathOutsideTheProject();
    void showsTheAddressOfAWebPageAndTheSubagent();
    void describesADoomLoopInPlainWords();
    void alwaysNamesItsPatternAndScopeOnTheButton();
    void alwaysNamesWhatAStarApprovesInWords();
    void aPatternsAmpersandIsNoMnemonic();
    void alwaysSaysWhichRuleItSavesAndWhatElseItAllows();
    void alwaysForExactlyOneThingSaysSo();
    void alwaysForEveryEditSaysItCoversEveryFile();
    void noAlwaysButtonWhenNothingCanBeApproved();
    void eachButtonRepliesWithItsAnswerAndScope_data();
    void eachButtonRepliesWithItsAnswerAndScope();
    void theMessageFieldRejectsWithTheText();
    void enterInTheMessageFieldSendsAndNeverAllows();
    void anEmptyMessageSendsNothing();
    void escapeRejects();
    void closingTheWindowRejects();
    void allowingWaitsUntilTheDialogHasBeenSeen();
    void isWindowModalAndSessionTitled();
    void aLongDiffScrollsAndTheAnswersStayOnScreen();
    void aWithdrawnDialogAnswersNothing();

private:
    PermissionDialog *openDialog(const PermissionRequest &request, const QString &title = u"Fix the tests"_s);
    void waitArmed(PermissionDialog *dialog);

    QWidget *m_window = nullptr;
};

void PermissionDialogTest::init()
{
    m_window = new QWidget;
    m_window->resize(800, 600);
    m_window->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_window));
}

void PermissionDialogTest::cleanup()
{
    delete m_window;
    m_window = nullptr;
}

PermissionDialog *PermissionDialogTest::openDialog(const PermissionRequest &request, const QString &title)
{
    auto *dialog = new PermissionDialog(request, title, m_window);
    dialog->open();
    return dialog;
}

void PermissionDialogTest::waitArmed(PermissionDialog *dialog)
{
    QPushButton *allow = button(*dialog, u"allowOnceButton"_s);
    QVERIFY(allow);
    QTRY_VERIFY(allow->isEnabled());
}

void PermissionDialogTest::showsTheCommandItWouldRunInPlainWords()
{
    PermissionDialog *dialog = openDialog(bashRequest());
    const QStringList texts = shownTexts(*dialog);
    QVERIFY(texts.contains(u"Run a command"_s));
    QVERIFY(texts.contains(u"git status --short"_s));
    QVERIFY(texts.contains(u"Show changes"_s)); // the agent's own description
    const auto boxes = dialog->findChildren<QPlainTextEdit *>();
    QCOMPARE(boxes.size(), 1);
    QVERIFY(boxes.first()->isReadOnly());
    QVERIFY(boxes.first()->font().fixedPitch() || boxes.first()->fontInfo().fixedPitch());
}

void PermissionDialogTest::showsAnEditsDiffWithColouredLines()
{
    PermissionDialog *dialog = openDialog(editRequest());
    const QStringList texts = shownTexts(*dialog);
    QVERIFY(texts.contains(u"Edit a file"_s));
    QVERIFY(texts.contains(u"src/main.cpp"_s));
    auto *diff = dialog->findChild<PermissionDiffBox *>();
    QVERIFY(diff);
    QVERIFY(diff->isReadOnly());
    QVERIFY(diff->toPlainText().contains(u"+{ return 0; }"_s));
    QList<QColor> backgrounds;
    for (const QTextEdit::ExtraSelection &selection : diff->extraSelections()) {
        if (selection.format.hasProperty(QTextFormat::BackgroundBrush))
            backgrounds.append(selection.format.background().color());
    }
    // The hunk line, the removed line and the added line, each its colour.
    QCOMPARE(backgrounds.size(), 3);
    QCOMPARE(backgrounds.at(1), diff->background(PermissionDiffBox::LineKind::Removed));
    QCOMPARE(backgrounds.at(2), diff->background(PermissionDiffBox::LineKind::Added));
    QVERIFY(backgrounds.at(1) != backgrounds.at(2));
}

void PermissionDialogTest::diffColoursFollowTheTheme()
{
    PermissionDiffBox view(10);
    view.setDiff(u"@@ -1 +1 @@\n-old\n+new\n"_s);
    QPalette light = view.palette();
    light.setColor(QPalette::Base, Qt::white);
    view.setPalette(light);
    const QColor addedOnLight = view.background(PermissionDiffBox::LineKind::Added);
    QPalette dark = view.palette();
    dark.setColor(QPalette::Base, QColor(30, 30, 30));
    view.setPalette(dark);
    const QColor addedOnDark = view.background(PermissionDiffBox::LineKind::Added);
    QVERIFY(addedOnLight.lightness() > 180);
    QVERIFY(addedOnDark.lightness() < 90);
    QVERIFY(addedOnDark.green() > addedOnDark.red());
    // The lines on screen took the new colour too.
    QCOMPARE(view.extraSelections().last().format.background().color(), addedOnDark);
}

void PermissionDialogTest::showsThePathOutsideTheProject()
{
    PermissionDialog *dialog = openDialog(externalRequest());
    const QStringList texts = shownTexts(*dialog);
    QVERIFY(texts.contains(u"Access a file outside the project"_s));
    QVERIFY(texts.contains(u"/etc/ssh/sshd_config"_s));
    QCOMPARE(button(*dialog, u"alwaysSessionButton"_s)->text(), u"&Always allow “/etc/ssh/*” in this session"_s);
}

void PermissionDialogTest::showsTheAddressOfAWebPageAndTheSubagent()
{
    const PermissionRequest fetch = request(u"webfetch"_s, {u"https://example.com/docs"_s}, {u"*"_s},
                                            {{u"url"_s, u"https://example.com/docs"_s}});
    const PermissionDescription fetching = PermissionDescription::describe(fetch);
    QCOMPARE(fetching.action, u"Fetch a web page"_s);
    QCOMPARE(fetching.details.size(), 1);
    QCOMPARE(fetching.details.first().text, u"https://example.com/docs"_s);

    const PermissionRequest task = request(u"task"_s, {u"explore"_s}, {u"*"_s},
                                           {{u"description"_s, u"Find the parser"_s}, {u"subagent_type"_s, u"explore"_s}});
    const PermissionDescription starting = PermissionDescription::describe(task);
    QCOMPARE(starting.action, u"Start a subagent"_s);
    QCOMPARE(starting.note, u"Find the parser"_s);
    QCOMPARE(starting.details.first().text, u"explore"_s);
}

void PermissionDialogTest::describesADoomLoopInPlainWords()
{
    const PermissionRequest doomLoop =
        request(u"doom_loop"_s, {u"read"_s}, {u"read"_s},
                {{u"tool"_s, u"read"_s}, {u"input"_s, QJsonObject{{u"filePath"_s, u"a.txt"_s}}}});
    PermissionDialog *dialog = openDialog(doomLoop);
    const QStringList texts = shownTexts(*dialog);
    QVERIFY(texts.contains(u"The agent repeated the same call 3 times (doom loop)"_s));
    QVERIFY(std::any_of(texts.cbegin(), texts.cend(), [](const QString &t) { return t.contains(u"a.txt"_s); }));
    QCOMPARE(button(*dialog, u"alwaysSessionButton"_s)->text(), u"&Always allow repeated “read” calls in this session"_s);
}

void PermissionDialogTest::alwaysNamesItsPatternAndScopeOnTheButton()
{
    PermissionDialog *dialog = openDialog(bashRequest());
    QCOMPARE(button(*dialog, u"alwaysSessionButton"_s)->text(), u"&Always allow “git status *” in this session"_s);
    QCOMPARE(button(*dialog, u"alwaysProjectButton"_s)->text(), u"Always allow “git status *” in this &project"_s);
    QVERIFY(button(*dialog, u"alwaysProjectButton"_s)->toolTip().contains(u"git status *"_s));
}

void PermissionDialogTest::alwaysNamesWhatAStarApprovesInWords()
{
    PermissionDialog *dialog = openDialog(editRequest());
    QCOMPARE(button(*dialog, u"alwaysSessionButton"_s)->text(), u"&Always allow every file edit in this session"_s);
}

void PermissionDialogTest::aPatternsAmpersandIsNoMnemonic()
{
    PermissionRequest make = bashRequest();
    make.always = {u"make && make install"_s};
    const PermissionDescription description = PermissionDescription::describe(make);
    QCOMPARE(description.alwaysText(ApprovalScope::Session),
             u"&Always allow “make &&&& make install” in this session"_s);
}

void PermissionDialogTest::alwaysSaysWhichRuleItSavesAndWhatElseItAllows()
{
    PermissionDialog *dialog = openDialog(bashRequest());
    auto *note = dialog->findChild<QLabel *>(u"alwaysNote"_s);
    QVERIFY(note);
    QVERIFY(note->isVisible());
    QCOMPARE(note->text(), u"“Always”: Saves the rule “git status *”: it also allows any other “git status” command, "
                           "whatever follows it (for example “git status --help”)."_s);
    QVERIFY(!note->text().contains(u'`'));
}

void PermissionDialogTest::alwaysForExactlyOneThingSaysSo()
{
    PermissionRequest exact = bashRequest();
    exact.always = {u"make"_s, u"make install"_s};
    QCOMPARE(PermissionDescription::describe(exact).alwaysCovers,
             u"Saves the rule “make”: it allows exactly that and nothing else. The same holds for the other 1 "
             "pattern(s)."_s);
}

void PermissionDialogTest::alwaysForEveryEditSaysItCoversEveryFile()
{
    PermissionDialog *dialog = openDialog(editRequest());
    auto *note = dialog->findChild<QLabel *>(u"alwaysNote"_s);
    QVERIFY(note);
    QVERIFY(note->text().contains(u"any file in the project"_s));
}

void PermissionDialogTest::noAlwaysButtonWhenNothingCanBeApproved()
{
    PermissionRequest once = bashRequest();
    once.always.clear();
    PermissionDialog *dialog = openDialog(once);
    QVERIFY(!button(*dialog, u"alwaysSessionButton"_s));
    QVERIFY(!button(*dialog, u"alwaysProjectButton"_s));
    QVERIFY(button(*dialog, u"allowOnceButton"_s));
    QVERIFY(button(*dialog, u"rejectButton"_s));
}

void PermissionDialogTest::eachButtonRepliesWithItsAnswerAndScope_data()
{
    QTest::addColumn<QString>("buttonName");
    QTest::addColumn<PermissionReply>("reply");
    QTest::addColumn<ApprovalScope>("scope");
    QTest::newRow("once") << u"allowOnceButton"_s << PermissionReply::Once << ApprovalScope::Session;
    QTest::newRow("always, session") << u"alwaysSessionButton"_s << PermissionReply::Always << ApprovalScope::Session;
    QTest::newRow("always, project") << u"alwaysProjectButton"_s << PermissionReply::Always << ApprovalScope::Project;
    QTest::newRow("reject") << u"rejectButton"_s << PermissionReply::Reject << ApprovalScope::Session;
}

void PermissionDialogTest::eachButtonRepliesWithItsAnswerAndScope()
{
    QFETCH(QString, buttonName);
    QFETCH(PermissionReply, reply);
    QFETCH(ApprovalScope, scope);
    PermissionDialog *dialog = openDialog(bashRequest());
    QSignalSpy answered(dialog, &PermissionDialog::answered);
    waitArmed(dialog);
    QTest::mouseClick(button(*dialog, buttonName), Qt::LeftButton);
    QCOMPARE(answered.size(), 1);
    QCOMPARE(answered.first().at(0).toString(), u"per_bash"_s);
    QCOMPARE(answered.first().at(1).value<PermissionReply>(), reply);
    QCOMPARE(answered.first().at(2).toString(), QString());
    QCOMPARE(answered.first().at(3).value<ApprovalScope>(), scope);
    QVERIFY(!dialog->isVisible());
}

void PermissionDialogTest::theMessageFieldRejectsWithTheText()
{
    PermissionDialog *dialog = openDialog(bashRequest());
    QSignalSpy answered(dialog, &PermissionDialog::answered);
    auto *message = dialog->findChild<QLineEdit *>(u"messageEdit"_s);
    QTest::keyClicks(message, u"  use git diff instead "_s);
    QTest::mouseClick(button(*dialog, u"sendButton"_s), Qt::LeftButton);
    QCOMPARE(answered.size(), 1);
    QCOMPARE(answered.first().at(1).value<PermissionReply>(), PermissionReply::RejectWithMessage);
    QCOMPARE(answered.first().at(2).toString(), u"use git diff instead"_s);
}

void PermissionDialogTest::enterInTheMessageFieldSendsAndNeverAllows()
{
    PermissionDialog *dialog = openDialog(bashRequest());
    waitArmed(dialog);
    QSignalSpy answered(dialog, &PermissionDialog::answered);
    auto *message = dialog->findChild<QLineEdit *>(u"messageEdit"_s);
    message->setFocus();
    QTest::keyClicks(message, u"not now"_s);
    QTest::keyClick(message, Qt::Key_Return);
    QCOMPARE(answered.size(), 1);
    QCOMPARE(answered.first().at(1).value<PermissionReply>(), PermissionReply::RejectWithMessage);
    QCOMPARE(answered.first().at(2).toString(), u"not now"_s);
}

void PermissionDialogTest::anEmptyMessageSendsNothing()
{
    PermissionDialog *dialog = openDialog(bashRequest());
    waitArmed(dialog);
    QSignalSpy answered(dialog, &PermissionDialog::answered);
    auto *message = dialog->findChild<QLineEdit *>(u"messageEdit"_s);
    QTest::keyClicks(message, u"   "_s);
    QVERIFY(!button(*dialog, u"sendButton"_s)->isEnabled());
    QTest::keyClick(message, Qt::Key_Return);
    QCOMPARE(answered.size(), 0);
    QVERIFY(dialog->isVisible());
}

void PermissionDialogTest::escapeRejects()
{
    PermissionDialog *dialog = openDialog(bashRequest());
    QVERIFY(QTest::qWaitForWindowExposed(dialog));
    QSignalSpy answered(dialog, &PermissionDialog::answered);
    QTest::keyClick(dialog->focusWidget() ? dialog->focusWidget() : dialog, Qt::Key_Escape);
    QCOMPARE(answered.size(), 1);
    QCOMPARE(answered.first().at(1).value<PermissionReply>(), PermissionReply::Reject);
    QVERIFY(!dialog->isVisible());
}

void PermissionDialogTest::closingTheWindowRejects()
{
    PermissionDialog *dialog = openDialog(bashRequest());
    QSignalSpy answered(dialog, &PermissionDialog::answered);
    QVERIFY(dialog->close());
    QCOMPARE(answered.size(), 1);
    QCOMPARE(answered.first().at(1).value<PermissionReply>(), PermissionReply::Reject);
}

void PermissionDialogTest::allowingWaitsUntilTheDialogHasBeenSeen()
{
    PermissionDialog *dialog = openDialog(bashRequest());
    QSignalSpy answered(dialog, &PermissionDialog::answered);
    QPushButton *allow = button(*dialog, u"allowOnceButton"_s);
    QVERIFY(!allow->isEnabled());
    QVERIFY(!button(*dialog, u"alwaysSessionButton"_s)->isEnabled());
    QVERIFY(button(*dialog, u"rejectButton"_s)->isEnabled());
    // An Enter typed for the prompt lands here and allows nothing.
    QTest::keyClick(dialog->focusWidget() ? dialog->focusWidget() : dialog, Qt::Key_Return);
    QCOMPARE(answered.size(), 0);
    QTRY_VERIFY(allow->isEnabled());
    QVERIFY(allow->isDefault());
    QTRY_COMPARE(dialog->focusWidget(), allow);
    QTest::keyClick(allow, Qt::Key_Return);
    QCOMPARE(answered.size(), 1);
    QCOMPARE(answered.first().at(1).value<PermissionReply>(), PermissionReply::Once);
}

void PermissionDialogTest::isWindowModalAndSessionTitled()
{
    PermissionDialog *dialog = openDialog(bashRequest(), u"Refactor the parser"_s);
    QCOMPARE(dialog->windowModality(), Qt::WindowModal);
    QVERIFY(dialog->isVisible());
    QVERIFY(shownTexts(*dialog).contains(u"In session “Refactor the parser”"_s));
    dialog->setSessionTitle(u"Parser work"_s);
    QVERIFY(shownTexts(*dialog).contains(u"In session “Parser work”"_s));
    QCOMPARE(dialog->request().id, u"per_bash"_s);
}

void PermissionDialogTest::aLongDiffScrollsAndTheAnswersStayOnScreen()
{
    PermissionRequest longEdit = editRequest();
    QString diff = u"@@ -1,400 +1,400 @@\n"_s;
    for (int i = 0; i < 400; ++i)
        diff += u"-old line %1\n+new line %1 of a change long enough to need some width on any screen\n"_s.arg(i);
    longEdit.metadata.insert(u"diff"_s, diff);
    PermissionDialog *dialog = openDialog(longEdit);
    QVERIFY(QTest::qWaitForWindowExposed(dialog));
    const QSize screen = dialog->screen()->availableGeometry().size();
    QVERIFY(dialog->height() <= screen.height());
    QVERIFY(dialog->width() <= screen.width());
    for (const QString &name : {u"allowOnceButton"_s, u"alwaysProjectButton"_s, u"rejectButton"_s, u"sendButton"_s}) {
        QPushButton *answer = button(*dialog, name);
        const QRect shown(answer->mapTo(dialog, QPoint(0, 0)), answer->size());
        QVERIFY2(dialog->rect().contains(shown), qPrintable(name));
        QVERIFY(answer->isVisible());
    }
    auto *view = dialog->findChild<PermissionDiffBox *>();
    QVERIFY(view->verticalScrollBar()->maximum() > 0);
}

void PermissionDialogTest::aWithdrawnDialogAnswersNothing()
{
    PermissionDialog *dialog = openDialog(bashRequest());
    QSignalSpy answered(dialog, &PermissionDialog::answered);
    dialog->withdraw();
    QVERIFY(!dialog->isVisible());
    dialog->reject();
    QCOMPARE(answered.size(), 0);
}

QTEST_MAIN(PermissionDialogTest)
#include "tst_permission_dialog.moc"
