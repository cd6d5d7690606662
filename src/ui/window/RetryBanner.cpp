#include "RetryBanner.h"

#include <QDateTime>
#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>

#include "engine/session/SessionEvents.h"

using namespace Qt::StringLiterals;

namespace qcode {

RetryBanner::RetryBanner(QWidget *parent) : QFrame(parent)
{
    setObjectName(u"retryBanner"_s);
    setFrameShape(QFrame::StyledPanel);
    setAutoFillBackground(true);
    setBackgroundRole(QPalette::ToolTipBase);
    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(10, 6, 10, 6);
    m_label = new QLabel(this);
    m_label->setWordWrap(true);
    m_label->setForegroundRole(QPalette::ToolTipText);
    layout->addWidget(m_label, 1);
    m_stop = new QPushButton(this);
    connect(m_stop, &QPushButton::clicked, this, &RetryBanner::stopRequested);
    layout->addWidget(m_stop);
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

void RetryBanner::changeEvent(QEvent *event)
{
    QFrame::changeEvent(event);
    if (event->type() == QEvent::LanguageChange)
        retranslateUi();
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

QString RetryBanner::text() const
{
    return m_label->text();
}

void RetryBanner::tick()
{
    const qint64 left = std::max<qint64>(0, (m_next - m_clock() + 999) / 1000);
    const QString reason = m_reason.isEmpty() ? tr("The provider did not answer") : m_reason;
    m_label->setText(left > 0 ? tr("%1. Retrying in %n s (attempt %2)…", nullptr, int(left)).arg(reason).arg(m_attempt)
                              : tr("%1. Retrying now (attempt %2)…").arg(reason).arg(m_attempt));
}

} // namespace qcode
