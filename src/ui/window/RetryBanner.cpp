#include "RetryBanner.h"

#include <QDateTime>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>

#include "engine/session/SessionEvents.h"

using namespace Qt::StringLiterals;

namespace qcode {

RetryBanner::RetryBanner(QWidget *parent) : Banner(u"retryBanner"_s, QPalette::ToolTipBase, parent)
{
    m_stop = new QPushButton(this);
    connect(m_stop, &QPushButton::clicked, this, &RetryBanner::stopRequested);
    row()->addWidget(m_stop);
    m_timer.setInterval(1000);
    connect(&m_timer, &QTimer::timeout, this, &RetryBanner::tick);
    m_clock = [] { return QDateTime::currentMSecsSinceEpoch(); };
    retranslateUi();
    hide();
}

void RetryBanner::retranslateUi()
{
    m_stop->setText(tr("Stop"));
    m_stop->setToolTip(tr("Stop retrying and end this turn (Esc)"));
    if (m_timer.isActive())
        tick();
}

void RetryBanner::setStatus(const SessionStatus &status)
{
    if (status.type != SessionStatus::Type::Retry) {
        m_timer.stop();
        hide();
        return;
    }
    m_reason = status.message;
    m_attempt = status.attempt;
    m_next = status.next;
    tick();
    m_timer.start();
    show();
}

void RetryBanner::tick()
{
    const qint64 left = std::max<qint64>(0, (m_next - m_clock() + 999) / 1000);
    const QString reason = m_reason.isEmpty() ? tr("The provider did not answer") : m_reason;
    label()->setText(left > 0 ? tr("%1. Retrying in %n s (attempt %2)…", nullptr, int(left)).arg(reason).arg(m_attempt)
                              : tr("%1. Retrying now (attempt %2)…").arg(reason).arg(m_attempt));
}

} // namespace qcode
