#pragma once

#include "Banner.h"
#include <QTimer>

class QPushButton;

namespace qcode {

struct SessionStatus;

// Shown while a provider call waits to be retried: why, which attempt, and
// a countdown to the next try, with Stop beside it.
class RetryBanner : public Banner
{
    Q_OBJECT

public:
    explicit RetryBanner(QWidget *parent = nullptr);

    // Shows the banner for a Retry status, hides it for any other.
    void setStatus(const SessionStatus &status);
    // The clock the countdown reads (ms since the epoch); tests pin it.
    void setClock(std::function<qint64()> clock) { m_clock = std::move(clock); }

Q_SIGNALS:
    void stopRequested();

private:
    void retranslateUi() override;
    void tick();

    QPushButton *m_stop = nullptr;
    QTimer m_timer;
    QString m_reason;
    int m_attempt = 0;
    qint64 m_next = 0;
    std::function<qint64()> m_clock;
};

} // namespace qcode
