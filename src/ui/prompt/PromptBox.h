#pragma once

#include <QList>
#include <QSet>
#include <QString>
#include <QWidget>

#include <optional>

#include "AttachmentIntake.h"
#include "PromptAttachment.h"
#include "PromptChoices.h"
#include "PromptHistory.h"
#include "PromptSubmission.h"

class QMimeData;
class QPlainTextEdit;
class QPushButton;
class QToolButton;

namespace qcode {

class AgentPicker;
class AttachmentBar;
class AttachmentChip;
class ModelPicker;
class NoticeLabel;
class ProjectFileIndex;
class PromptCompleter;
class PromptEditor;
class QueuedPromptList;

// Where the person writes to the agent: a growing editor with chips for
// attached files, folders and images above it, the prompts waiting in the
// queue above those, and the agent and model pickers and Send (or Stop)
// below.
//
// Keys in the editor:
//   Enter, Ctrl+Enter  send        Shift+Enter  new line
//   Up / Down          earlier / later prompts (on the first / last line)
//   Ctrl+. / Ctrl+Shift+.  next / previous primary agent
//   Tab / Shift+Tab    leave the editor (an open popup takes Tab: Ctrl+Tab)
//   @                  mention a project file or an agent (popup)
//   / at the start     commands (popup)    ! at the start  a shell command
//   Escape             close the popup, else stop the agent while busy
//   Ctrl+Shift+M       choose the model
//
// Built-in commands (new, compact, undo, redo, export, models, agents) act
// when sent, as builtinCommandRequested, and never as `submitted`; choosing
// one in the "/" popup with Enter sends it at once, with Tab it is written
// out for arguments ("/export notes.md"). Custom commands are always
// written out and submitted with their arguments as Kind::Command.
class PromptBox : public QWidget
{
    Q_OBJECT

public:
    explicit PromptBox(QWidget *parent = nullptr);
    ~PromptBox() override;

    static QList<SlashCommand> builtinCommands();

    // Loads the project's prompt history and starts listing its files for
    // the "@" picker (again, also for the same folder: a refresh).
    void setProjectDirectory(const QString &dir);
    QString projectDirectory() const { return m_projectDirectory; }

    void setAgents(const QList<AgentChoice> &agents);
    void setCurrentAgent(const QString &name);
    QString currentAgent() const;
    void setModels(const QList<ModelChoice> &models);
    void setCurrentModel(const std::optional<ModelChoice> &m);
    std::optional<ModelChoice> currentModel() const;
    // Added to the built-ins; one named like a built-in is left out.
    void setCommands(const QList<SlashCommand> &custom);

    // While busy the Stop button replaces Send and Escape stops; sending
    // still works (the main window queues it).
    void setBusy(bool busy);
    bool isBusy() const { return m_busy; }
    void setQueued(const QList<QueuedPrompt> &queued);
    // Non-empty: Send is refused with this sentence and the typed text
    // stays (the project's config is broken); built-in commands still run.
    void setSendRefusal(const QString &reason);
    QString sendRefusal() const { return m_sendRefusal; }
    // While `reason` is not empty (no model can answer yet) a prompt or a
    // command is not sent: it stays in the box and `reason` is shown.
    void setSendingBlocked(const QString &reason) { m_blockedReason = reason; }

    void addAttachment(const PromptAttachment &a);
    // File and folder URLs and image data, as a drop on the box takes them;
    // refusals are shown beside the box. True when a chip was added.
    bool addDroppedMimeData(const QMimeData *mime);
    QList<PromptAttachment> attachments() const;
    void removeAttachment(int index);

    QString text() const;
    void setText(const QString &text);
    QPlainTextEdit *editor() const;

    // The message beside the box, empty when none is showing.
    QString notice() const;
    void showNotice(const QStringList &messages);

    PromptCompleter *completer() const { return m_completer; }
    ProjectFileIndex *fileIndex() const { return m_files; }
    ModelPicker *modelPicker() const { return m_modelPicker; }
    AgentPicker *agentPicker() const { return m_agentPicker; }
    QueuedPromptList *queuedList() const { return m_queued; }
    QList<AttachmentChip *> chips() const;
    QToolButton *attachButton() const { return m_attach; }
    // Adds the files as a drop of them would (the attach button's chooser).
    void attachFiles(const QStringList &paths);

public Q_SLOTS:
    // Sends what is in the box, as Enter does.
    void submit();
    void openModelPicker();
    void openAgentPicker();
    // The attach button: a file chooser, for those who do not drag.
    void chooseAttachments();

Q_SIGNALS:
    void submitted(const qcode::PromptSubmission &submission);
    void stopRequested();
    void builtinCommandRequested(const QString &name, const QString &arguments);
    void agentChanged(const QString &name);
    void modelChanged(const qcode::ModelChoice &model);
    void queuedEdited(const QString &id, const QString &text);
    void queuedRemoved(const QString &id);
    void queuedSendNowRequested(const QString &id);

protected:
    void dragEnterEvent(QDragEnterEvent *event) override;
    void dropEvent(QDropEvent *event) override;
    void keyPressEvent(QKeyEvent *event) override;
    void changeEvent(QEvent *event) override;

private:
    void buildLayout();
    void retranslateUi();
    bool handleEditorKey(QKeyEvent *event);
    bool recall(bool older);
    bool takeMimeData(const QMimeData *mime, AttachmentIntake::Source source);
    void updateButtons();
    // Queued prompts, chips, editor, pickers, Send/Stop: the order they are
    // seen in, whenever rows and chips come and go.
    void updateTabOrder();
    void updateCommands();
    void clearAfterSending();
    QSet<QString> commandNames() const;
    static bool isBuiltin(const QString &name);
    void findMentions(PromptSubmission &submission) const;

    QString m_projectDirectory;
    PromptHistory m_history;
    QList<AgentChoice> m_agents;
    QList<SlashCommand> m_customCommands;
    QSet<QString> m_pickedFiles; // chosen in the "@" popup since the last send
    bool m_busy = false;
    QString m_sendRefusal;
    QString m_blockedReason;

    PromptEditor *m_editor = nullptr;
    PromptCompleter *m_completer = nullptr;
    ProjectFileIndex *m_files = nullptr;
    QueuedPromptList *m_queued = nullptr;
    AttachmentBar *m_chipBar = nullptr;
    NoticeLabel *m_notice = nullptr;
    AgentPicker *m_agentPicker = nullptr;
    ModelPicker *m_modelPicker = nullptr;
    QPushButton *m_send = nullptr;
    QToolButton *m_attach = nullptr;
    QPushButton *m_stop = nullptr;
};

} // namespace qcode
