// Renders the README's screenshots of the main window's states into a
// folder: a real engine on the fake provider, the real widgets, a session
// played through the real tools. scripts/screenshots.sh runs it under Xvfb
// for the committed pictures; CTest runs it offscreen so it keeps working.
//
//   qcode_screenshots <output folder>
#include <QAction>
#include <QApplication>
#include <QDialog>
#include <QDir>
#include <QJsonArray>
#include <QPainter>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTest>

#include <cstdio>

#include "EngineHarness.h"
#include "model/Store.h"
#include "ui/chat/ChatView.h"
#include "ui/chat/tool/ToolCard.h"
#include "ui/prompt/PromptBox.h"
#include "ui/settings/AppSettings.h"
#include "ui/window/ChangesPanel.h"
#include "ui/window/MainWindow.h"
#include "ui/window/SessionController.h"
#include "ui/window/SessionPane.h"

using namespace Qt::StringLiterals;
using namespace qcode;
using namespace qcode::test;

namespace {

constexpr int WaitMs = 20000;

const QByteArray ParserSource = R"(#include "parser.h"

// Reads one token; returns its length.
int Parser::next(const char *text, int length)
{
    int i = 0;
    while (i <= length && text[i] != ' ')
        ++i;
    return i;
}
)";

const QString Summary = uR"(Fixed the **off-by-one** in `Parser::next`: the loop read one byte past the end of the buffer when a token ended the input.

```cpp
while (i < length && text[i] != ' ')
    ++i;
```

- `src/parser.cpp`: `<=` became `<`
- the tokenizer tests now cover a token at the very end

Run `make test` to check it.)"_s;

FakeTurn toolCall(const QString &tool, const QJsonObject &arguments, const QString &id)
{
    return FakeTurn().toolCall(tool, arguments, id);
}

QJsonObject todo(const QString &content, const QString &status)
{
    return QJsonObject{{u"content"_s, content}, {u"status"_s, status}, {u"priority"_s, u"high"_s}};
}

void script(FakeProviderServer &server)
{
    server.enqueue(FakeTurn()
                       .reasoning({u"The bug report points at the tokenizer. "_s, u"Read the parser first."_s})
                       .toolCall(u"read"_s, QJsonObject{{u"filePath"_s, u"src/parser.cpp"_s}}, u"call_read"_s));
    server.enqueue(toolCall(u"todowrite"_s,
                            QJsonObject{{u"todos"_s, QJsonArray{todo(u"Fix the loop bound in Parser::next"_s, u"completed"_s),
                                                                todo(u"Add a test for a token at the end"_s, u"in_progress"_s),
                                                                todo(u"Run the test suite"_s, u"pending"_s)}}},
                            u"call_todo"_s));
    server.enqueue(toolCall(u"edit"_s,
                            QJsonObject{{u"filePath"_s, u"src/parser.cpp"_s},
                                        {u"oldString"_s, u"while (i <= length"_s},
                                        {u"newString"_s, u"while (i < length"_s}},
                            u"call_edit"_s));
    server.enqueue(FakeTurn().text({Summary}).usage(18400, 620));
    server.enqueue(toolCall(u"bash"_s,
                            QJsonObject{{u"command"_s, u"make test"_s}, {u"description"_s, u"Run the test suite"_s}},
                            u"call_bash"_s));
}

bool save(const QPixmap &picture, const QString &folder, const QString &name)
{
    const QString path = QDir(folder).filePath(name);
    if (picture.isNull() || !picture.save(path)) {
        std::fprintf(stderr, "qcode_screenshots: could not write %s\n", qPrintable(path));
        return false;
    }
    std::printf("qcode_screenshots: %s (%dx%d)\n", qPrintable(path), picture.width(), picture.height());
    return true;
}

// The window with a dialog over it, where a window manager would put it.
QPixmap withDialog(QWidget &window, QWidget &dialog)
{
    QPixmap picture = window.grab();
    const QPixmap over = dialog.grab();
    QPainter painter(&picture);
    const QPoint at((picture.width() - over.width()) / 2, (picture.height() - over.height()) / 3);
    painter.fillRect(QRect(at + QPoint(4, 6), over.size()), QColor(0, 0, 0, 60));
    painter.drawPixmap(at, over);
    return picture;
}

// Waits for `condition`, then brings the window up to date: streamed text
// still waiting for its frame, layouts, and paints.
bool settle(MainWindow &window, const std::function<bool()> &condition)
{
    const bool met = QTest::qWaitFor(condition, WaitMs);
    window.pane()->chatView()->layoutNow();
    QCoreApplication::sendPostedEvents();
    QCoreApplication::processEvents();
    return met;
}

int render(const QString &folder)
{
    EngineHarness::Setup setup;
    setup.builtinTools = true;
    setup.ownThread = true;
    setup.contextLimit = 200000;
    setup.gitRepository = true; // snapshots, for the Changes panel
    setup.config.insert(u"permission"_s, QJsonObject{{u"bash"_s, u"ask"_s}, {u"edit"_s, u"allow"_s}});
    EngineHarness h(setup);
    h.tree().write(u"project/src/parser.cpp"_s, ParserSource);
    script(h.server());

    MainWindow window(&h.store(), &h.engine());
    AppSettings &settings = *window.settings(); // the window applies its own settings' changes
    window.resize(1280, 820);
    window.show();
    if (!QTest::qWaitForWindowExposed(&window))
        return 1;
    bool ok = save(window.grab(), folder, u"welcome.png"_s);

    QSignalSpy described(window.controller(), &SessionController::projectDescribed);
    window.openProject(h.projectDirectory());
    if (!described.wait(WaitMs))
        return 1;
    // The engine runs on its own thread and the spy records as it emits:
    // a wait() begun after the signal came would miss it, so each wait is
    // for the count to pass what it was.
    QSignalSpy finished(&h.engine(), &Engine::promptFinished);
    const auto finishedAfter = [&finished](qsizetype before) {
        return QTest::qWaitFor([&finished, before] { return finished.size() > before; }, WaitMs);
    };
    PromptBox *box = window.pane()->promptBox();
    box->setText(u"The tokenizer reads past the end of its buffer. Find and fix it."_s);
    box->submit();
    if (!finishedAfter(0))
        return 1;
    // The edit's diff is what people look for first.
    for (ToolCard *card : window.findChildren<ToolCard *>()) {
        if (card->title().startsWith(u"Edit"_s))
            card->setExpanded(true);
    }
    settle(window, [] { return true; });
    ok = save(window.grab(), folder, u"chat.png"_s) && ok;

    window.showChanges(u"src/parser.cpp"_s);
    ChangesPanel *changes = window.changesPanel();
    settle(window, [changes] { return changes->currentFile() == u"src/parser.cpp"_s; });
    ok = save(window.grab(), folder, u"changes.png"_s) && ok;
    window.findChild<QAction *>(u"changesAction"_s)->setChecked(false);

    box->setText(u"Run the tests"_s);
    box->submit();
    // The ask waits in the card of the command that asks.
    const auto asking = [&window]() -> ToolCard * {
        for (ToolCard *card : window.findChildren<ToolCard *>()) {
            if (card->askPanel() && card->askPanel()->isVisible())
                return card;
        }
        return nullptr;
    };
    if (!settle(window, [&asking] { return asking() != nullptr; }))
        return 1;
    window.pane()->chatView()->scrollToBottom();
    settle(window, [] { return true; });
    ok = save(window.grab(), folder, u"inline-ask.png"_s) && ok;
    const qsizetype answered = finished.size();
    window.controller()->abort();
    if (!finishedAfter(answered))
        return 1;

    settings.setTheme(AppSettings::Theme::Dark);
    settle(window, [] { return true; });
    ok = save(window.grab(), folder, u"chat-dark.png"_s) && ok;
    settings.setTheme(AppSettings::Theme::Light);

    window.openSettings(u"providers"_s);
    auto *dialog = window.findChild<QDialog *>(u"settingsDialog"_s);
    if (!dialog || !settle(window, [dialog] { return dialog->isVisible(); }))
        return 1;
    dialog->resize(900, 620);
    settle(window, [] { return true; });
    ok = save(withDialog(window, *dialog), folder, u"settings.png"_s) && ok;
    settings.setTheme(AppSettings::Theme::System);
    return ok ? 0 : 1;
}

} // namespace

int main(int argc, char *argv[])
{
    QApplication app(argc, argv);
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setApplicationName(u"qcode-screenshots"_s);
    QSettings().clear();
    const QString folder = app.arguments().value(1);
    if (folder.isEmpty()) {
        std::fprintf(stderr, "usage: qcode_screenshots <output folder>\n");
        return 2;
    }
    if (!QDir().mkpath(folder)) {
        std::fprintf(stderr, "qcode_screenshots: cannot create %s\n", qPrintable(folder));
        return 1;
    }
    const int result = render(folder);
    if (result != 0)
        std::fprintf(stderr, "qcode_screenshots: a state did not come up in time; see the messages above\n");
    return result;
}
