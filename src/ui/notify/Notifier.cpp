#include "Notifier.h"

#include <QApplication>
#include <QEvent>
#include <QLoggingCategory>
#include <QStyle>
#include <QWidget>

namespace qcode {
namespace {

Q_LOGGING_CATEGORY(lcNotify, "qcode.ui.notify", QtInfoMsg)

constexpr int MessageTimeoutMs = 10000;
constexpr qsizetype MaxMessageLength = 200; // notification bubbles show a few lines at most

QString shortened(const QString &text)
{
    const QString simplified = text.simplified();
    return simplified.size() <= MaxMessageLength ? simplified : simplified.left(MaxMessageLength - 1) + u'…';
}

QString duration(qint64 ms)
{
    const qint64 seconds = (ms + 500) / 1000;
    if (seconds < 60)
        return Notifier::tr("%1 s").arg(seconds);
    const qint64 minutes = seconds / 60;
    if (minutes < 60)
        return Notifier::tr("%1 min %2 s").arg(minutes).arg(seconds % 60);
    return Notifier::tr("%1 h %2 min").arg(minutes / 60).arg(minutes % 60);
}

QString titled(const QString &sessionTitle)
{
    return sessionTitle.isEmpty() ? Notifier::tr("A session") : Notifier::tr("“%1”").arg(sessionTitle);
}

} // namespace

Notifier::Notifier(QWidget *window)
    : QObject(window)
    , m_window(window)
{
    if (window)
        window->installEventFilter(this);
}

void Notifier::permissionNeeded(const QString &sessionTitle, const QString &what)
{
    alert(tr("Permission needed"), tr("%1 wants to: %2").arg(titled(sessionTitle), what),
          QSystemTrayIcon::Warning);
}

void Notifier::questionAsked(const QString &sessionTitle, const QString &question)
{
    alert(tr("A question for you"), tr("%1 asks: %2").arg(titled(sessionTitle), question),
          QSystemTrayIcon::Information);
}

void Notifier::taskFinished(const QString &sessionTitle, qint64 durationMs)
{
    if (durationMs < FinishedThresholdMs)
        return;
    alert(tr("Task finished"), tr("%1 finished after %2.").arg(titled(sessionTitle), duration(durationMs)),
          QSystemTrayIcon::Information);
}

void Notifier::taskFailed(const QString &sessionTitle, const QString &error)
{
    alert(tr("Task failed"), tr("%1 stopped: %2").arg(titled(sessionTitle), error), QSystemTrayIcon::Critical);
}

void Notifier::alert(const QString &title, const QString &message, QSystemTrayIcon::MessageIcon icon)
{
    if (!m_enabled || !m_window || m_window->isActiveWindow())
        return;
    ++m_alertsShown;
    qCInfo(lcNotify) << "alerting:" << title;
    QApplication::alert(m_window->window());
    if (!QSystemTrayIcon::isSystemTrayAvailable())
        return;
    QSystemTrayIcon *trayIcon = tray();
    trayIcon->show();
    trayIcon->showMessage(title, shortened(message), icon, MessageTimeoutMs);
}

QSystemTrayIcon *Notifier::tray()
{
    if (m_tray)
        return m_tray;
    QIcon icon = m_window->windowIcon();
    if (icon.isNull())
        icon = QApplication::windowIcon();
    if (icon.isNull())
        icon = m_window->style()->standardIcon(QStyle::SP_MessageBoxInformation);
    m_tray = new QSystemTrayIcon(icon, this);
    m_tray->setToolTip(QApplication::applicationDisplayName());
    connect(m_tray, &QSystemTrayIcon::messageClicked, this, &Notifier::bringWindowBack);
    connect(m_tray, &QSystemTrayIcon::activated, this, &Notifier::bringWindowBack);
    return m_tray;
}

void Notifier::bringWindowBack()
{
    if (!m_window)
        return;
    QWidget *window = m_window->window();
    window->setWindowState(window->windowState() & ~Qt::WindowMinimized);
    window->show();
    window->raise();
    window->activateWindow();
}

bool Notifier::eventFilter(QObject *watched, QEvent *event)
{
    // The person is back: the tray icon has nothing more to say.
    if (watched == m_window && event->type() == QEvent::WindowActivate && m_tray)
        m_tray->hide();
    return QObject::eventFilter(watched, event);
}

} // namespace qcode
