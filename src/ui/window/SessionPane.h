#pragma once

#include <QWidget>

class QAction;
class QHBoxLayout;
class QLabel;
class QVBoxLayout;

namespace qcode {

class ChatView;
class ConfigErrorBanner;
class ContextMeter;
class KeychainNotice;
class NoProviderBanner;
class PromptBox;
class RetryBanner;
class RevertBanner;
class SessionController;
class TodoPanel;
struct ChatContext;

// The open session: its title and context meter, the conversation, the
// banners that come and go (a retry countdown, an undo to redo), the
// agent's plan, and the prompt box at the bottom.
class SessionPane : public QWidget
{
    Q_OBJECT

public:
    SessionPane(SessionController *controller, const ChatContext &context, QWidget *parent = nullptr);

    ChatView *chatView() const { return m_chat; }
    ContextMeter *contextMeter() const { return m_meter; }
    RetryBanner *retryBanner() const { return m_retry; }
    RevertBanner *revertBanner() const { return m_revert; }
    ConfigErrorBanner *configErrorBanner() const { return m_configErrors; }
    NoProviderBanner *noProviderBanner() const { return m_noProvider; }
    KeychainNotice *keychainNotice() const { return m_keychain; }
    TodoPanel *todoPanel() const { return m_todos; }
    PromptBox *promptBox() const { return m_prompt; }
    // A button for `action` in the session's header, beside the meter.
    void addHeaderAction(QAction *action);
    // The model's context window, for the meter (0: unknown).
    void setContextLimit(qint64 limit);
    qint64 contextLimit() const { return m_contextLimit; }

Q_SIGNALS:
    // "/export" from the prompt box: the window asks where to.
    void exportRequested(const QString &arguments);
    // "Connect a provider…": the window opens Settings at Providers.
    void connectProviderRequested();

protected:
    void changeEvent(QEvent *event) override;

private:
    void connectPromptBox();
    void applyProject();
    void restoreSessionChoices();
    void runBuiltin(const QString &name, const QString &arguments);
    void updateTitle();
    void updateUsage();

    SessionController *m_controller;
    QLabel *m_title = nullptr;
    QHBoxLayout *m_headerLayout = nullptr;
    ContextMeter *m_meter = nullptr;
    ChatView *m_chat = nullptr;
    RetryBanner *m_retry = nullptr;
    RevertBanner *m_revert = nullptr;
    ConfigErrorBanner *m_configErrors = nullptr;
    NoProviderBanner *m_noProvider = nullptr;
    KeychainNotice *m_keychain = nullptr;
    TodoPanel *m_todos = nullptr;
    PromptBox *m_prompt = nullptr;
    QVBoxLayout *m_layout = nullptr;
    qint64 m_contextLimit = 0;
};

} // namespace qcode
