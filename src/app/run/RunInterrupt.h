#pragma once

#include <QObject>

class QSocketNotifier;

namespace qcode {

// Ctrl-C (SIGINT) and SIGTERM as a Qt signal on the main thread, so
// `qcode run` can abort the prompt and leave the session consistent instead
// of dying mid-write. A second signal while the first is handled ends the
// process at once with status 130, for a run that does not stop.
// One instance per process; elsewhere than Unix the default handling stays.
class RunInterrupt : public QObject
{
    Q_OBJECT

public:
    explicit RunInterrupt(QObject *parent = nullptr);
    ~RunInterrupt() override;

Q_SIGNALS:
    void interrupted();

private:
    void onReadable();

    QSocketNotifier *m_notifier = nullptr;
};

} // namespace qcode
