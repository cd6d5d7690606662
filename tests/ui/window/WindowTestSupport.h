#pragma once

// What the window suites share: opening a project in a shown window, and
// finding what it shows.

#include <QSignalSpy>
#include <QString>
#include <QTest>

#include "ui/chat/ChatView.h"
#include "ui/chat/MessageWidget.h"
#include "ui/chat/parts/ToolPartWidget.h"
#include "ui/chat/tool/ToolCard.h"
#include "ui/window/MainWindow.h"
#include "ui/window/SessionController.h"

namespace qcode::test {

// Shows `window` at the size the window suites lay out for and opens the
// project folder `directory` in it. True once the engine has described the
// project, so its agents, models and commands are in the prompt box.
inline bool showWithProject(MainWindow &window, const QString &directory, int timeoutMs = 10000)
{
    window.resize(1000, 760);
    window.show();
    if (!QTest::qWaitForWindowExposed(&window))
        return false;
    QSignalSpy described(window.controller(), &SessionController::projectDescribed);
    window.openProject(directory);
    return described.wait(timeoutMs);
}

// The card of the newest tool call on screen, if any.
inline ToolCard *newestCard(ChatView *chat)
{
    for (int row = chat->model()->rowCount() - 1; row >= 0; --row) {
        MessageWidget *message = chat->widgetAt(row);
        if (!message)
            continue;
        for (auto *tool : message->findChildren<ToolPartWidget *>())
            return tool->card();
    }
    return nullptr;
}

} // namespace qcode::test
