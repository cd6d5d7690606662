#pragma once

#include <QSignalSpy>
#include <QString>
#include <QTest>

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

} // namespace qcode::test
