#pragma once

#include <QDialog>
#include <QTimer>

#include <chrono>

#include "PermissionDescription.h"
#include "engine/session/asks/PermissionCenter.h"
#include "engine/session/SessionEvents.h"

class QLabel;
class QLineEdit;
class QPushButton;
class QScrollArea;

namespace qcode {

// The person's answer to one permission request (reference §9): what the
// agent wants, in plain words, exactly what would happen (the command, the
// diff, the paths), and the answers — allow once, always allow (for the
// session or the project), reject, or reject with words for the agent.
//
// Window-modal and opened with open(): other sessions keep working, the
// engine runs on its own thread. The details scroll; the answers never do.
// Escape and closing the window reject, so an ask is never lost silently.
// answered() is emitted once, unless withdraw() closed the dialog first.
class PermissionDialog : public QDialog
{
    Q_OBJECT

public:
    // The allowing buttons wait this long after the dialog appears: the
    // person was perhaps typing the next prompt, and an Enter meant for it
    // must not approve a command nobody read.
    static constexpr std::chrono::milliseconds ArmDelay{500};

    PermissionDialog(const PermissionRequest &request, const QString &sessionTitle, QWidget *parent);

    const PermissionRequest &request() const { return m_request; }
    void setSessionTitle(const QString &title);
    // Closes without answering: the ask was answered elsewhere or cancelled.
    void withdraw();

    void reject() override;

Q_SIGNALS:
    void answered(const QString &requestID, qcode::PermissionReply reply, const QString &message,
                  qcode::ApprovalScope scope);

protected:
    void showEvent(QShowEvent *event) override;
    void changeEvent(QEvent *event) override;
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    // Every word of the dialog's own, from the request, in the language in use.
    void retranslateUi();
    QWidget *createDetails(const PermissionDescription &description);
    QWidget *createAnswers(const PermissionDescription &description);
    void orderTabs();
    void fitScreen();
    void answer(PermissionReply reply, const QString &message = {}, ApprovalScope scope = ApprovalScope::Session);
    void sendMessage();
    void arm();

    PermissionRequest m_request;
    bool m_answered = false;
    bool m_fitted = false; // sized to its content and the screen, once, when first shown
    QString m_sessionTitle;
    QLabel *m_actionLabel = nullptr;
    QLabel *m_sessionLabel = nullptr;
    QScrollArea *m_scroll = nullptr;
    QList<QLabel *> m_detailLabels;
    QList<QWidget *> m_detailBoxes;
    QLabel *m_messageLabel = nullptr;
    QPushButton *m_allowOnce = nullptr;
    QPushButton *m_alwaysSession = nullptr; // null when the request offers no "always"
    QPushButton *m_alwaysProject = nullptr;
    QLabel *m_alwaysNote = nullptr;
    QPushButton *m_reject = nullptr;
    QLineEdit *m_message = nullptr;
    QPushButton *m_send = nullptr;
    QTimer m_arming;
};

} // namespace qcode
