#pragma once

#include <QObject>
#include <QPointer>
#include <QSystemTrayIcon>

class QWidget;

namespace qcode {

// Tells the person, when they are looking elsewhere, that the agent needs
// them or is done: the taskbar or dock asks for attention
// (QApplication::alert) and, where the desktop has a system tray, a
// notification appears (from a tray icon made on first use and hidden again
// once the window is active). Nothing happens while the window is active:
// the person sees it there. Never blocks.
class Notifier : public QObject
{
    Q_OBJECT

public:
    // A turn shorter than this is no news: the person was likely waiting
    // for it.
    static constexpr qint64 FinishedThresholdMs = 10000;

    explicit Notifier(QWidget *window);

    void permissionNeeded(const QString &sessionTitle, const QString &what);
    void questionAsked(const QString &sessionTitle, const QString &question);
    void taskFinished(const QString &sessionTitle, qint64 durationMs);
    void taskFailed(const QString &sessionTitle, const QString &error);

    void setEnabled(bool enabled) { m_enabled = enabled; }
    bool isEnabled() const { return m_enabled; }
    // How many times the person was alerted (for tests: the offscreen
    // platform shows nothing).
    int alertsShown() const { return m_alertsShown; }

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void alert(const QString &title, const QString &message, QSystemTrayIcon::MessageIcon icon);
    QSystemTrayIcon *tray();
    void bringWindowBack();

    QPointer<QWidget> m_window;
    QSystemTrayIcon *m_tray = nullptr; // made on first use
    bool m_enabled = true;
    int m_alertsShown = 0;
};

} // namespace qcode
