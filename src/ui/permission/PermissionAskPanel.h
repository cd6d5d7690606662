#pragma once

#include <QWidget>

#include "engine/session/asks/PermissionCenter.h"
#include "engine/session/SessionEvents.h"

class QLabel;
class QLineEdit;
class QPushButton;

namespace qcode {

// A permission request answered in the card of the call that asks (issue
// 19): what would happen, in words and exactly (the command, the coloured
// diff, the paths), and the answers — allow once, always for this session,
// always for this project, reject, or reject with words for the agent —
// each with a mnemonic, so Alt+O allows from the prompt box. "Always" says
// in words what it would approve. answered() is emitted once.
//
// Children tests may look up: "allowOnceButton", "alwaysSessionButton",
// "alwaysProjectButton" (absent when the request offers no "always"),
// "rejectButton", "messageEdit", "sendButton", "alwaysNote".
class PermissionAskPanel : public QWidget
{
    Q_OBJECT

public:
    explicit PermissionAskPanel(const PermissionRequest &request, QWidget *parent = nullptr);

    const PermissionRequest &request() const { return m_request; }

Q_SIGNALS:
    void answered(const QString &requestID, qcode::PermissionReply reply, const QString &message,
                  qcode::ApprovalScope scope);

protected:
    void changeEvent(QEvent *event) override;
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void retranslateUi();
    void answer(PermissionReply reply, const QString &message = {}, ApprovalScope scope = ApprovalScope::Session);
    void sendMessage();

    PermissionRequest m_request;
    bool m_answered = false;
    QLabel *m_actionLabel = nullptr;
    QList<QLabel *> m_detailLabels;
    QList<QWidget *> m_detailBoxes;
    QPushButton *m_allowOnce = nullptr;
    QPushButton *m_alwaysSession = nullptr; // null when the request offers no "always"
    QPushButton *m_alwaysProject = nullptr;
    QPushButton *m_reject = nullptr;
    QLabel *m_alwaysNote = nullptr;
    QLabel *m_messageLabel = nullptr;
    QLineEdit *m_message = nullptr;
    QPushButton *m_send = nullptr;
};

} // namespace qcode
