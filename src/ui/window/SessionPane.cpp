#include "SessionPane.h"

#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QPlainTextEdit>
#include <QToolButton>
#include <QVBoxLayout>

#include "ConfigErrorBanner.h"
#include "ContextMeter.h"
#include "KeychainNotice.h"
#include "NoProviderBanner.h"
#include "ProjectChoices.h"
#include "RetryBanner.h"
#include "RevertBanner.h"
#include "SessionController.h"
#include "TodoPanel.h"
#include "ui/chat/ChatView.h"
#include "ui/prompt/PromptBox.h"

using namespace Qt::StringLiterals;

namespace qcode {

SessionPane::SessionPane(SessionController *controller, const ChatContext &context, QWidget *parent)
    : QWidget(parent)
    , m_controller(controller)
{
    setObjectName(u"sessionPane"_s);
    m_layout = new QVBoxLayout(this);
    m_layout->setContentsMargins(0, 0, 0, 0);
    m_layout->setSpacing(0);

    auto *header = new QWidget(this);
    header->setObjectName(u"sessionHeader"_s);
    auto *headerLayout = new QHBoxLayout(header);
    headerLayout->setContentsMargins(16, 8, 12, 8);
    m_title = new QLabel(header);
    m_title->setObjectName(u"sessionTitle"_s);
    m_title->setTextFormat(Qt::PlainText);
    QFont titleFont = m_title->font();
    titleFont.setBold(true);
    m_title->setFont(titleFont);
    m_title->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred); // elided, never widens the window
    headerLayout->addWidget(m_title, 1);
    m_meter = new ContextMeter(header);
    headerLayout->addWidget(m_meter);
    m_headerLayout = headerLayout;
    m_layout->addWidget(header);

    m_chat = new ChatView(controller->chat(), context, this);
    m_layout->addWidget(m_chat, 1);

    auto *banners = new QVBoxLayout;
    banners->setContentsMargins(12, 4, 12, 4);
    banners->setSpacing(4);
    m_noProvider = new NoProviderBanner(this);
    banners->addWidget(m_noProvider);
    m_keychain = new KeychainNotice(this);
    banners->addWidget(m_keychain);
    connect(m_noProvider, &NoProviderBanner::connectRequested, this, &SessionPane::connectProviderRequested);
    m_retry = new RetryBanner(this);
    banners->addWidget(m_retry);
    m_revert = new RevertBanner(this);
    banners->addWidget(m_revert);
    m_configErrors = new ConfigErrorBanner(this);
    banners->addWidget(m_configErrors);
    m_todos = new TodoPanel(this);
    banners->addWidget(m_todos);
    m_layout->addLayout(banners);

    m_prompt = new PromptBox(this);
    m_layout->addWidget(m_prompt);
    connectPromptBox();

    connect(m_retry, &RetryBanner::stopRequested, controller, &SessionController::abort);
    connect(m_revert, &RevertBanner::redoRequested, controller, &SessionController::redo);
    connect(m_configErrors, &ConfigErrorBanner::reloadRequested, controller, &SessionController::reloadProject);
    connect(controller, &SessionController::currentSessionChanged, this, [this] {
        restoreSessionChoices();
        updateTitle();
        const std::optional<SessionStatus> status = m_controller->status(m_controller->currentSession());
        m_retry->setStatus(status.value_or(SessionStatus::idle()));
    });
    connect(controller->sessions(), &QAbstractItemModel::dataChanged, this, &SessionPane::updateTitle);
    connect(controller, &SessionController::sessionStatusChanged, this,
            [this](const QString &sessionID, const SessionStatus &status) {
                if (sessionID == m_controller->currentSession())
                    m_retry->setStatus(status);
            });
    connect(controller, &SessionController::todosChanged, m_todos, &TodoPanel::setTodos);
    connect(controller, &SessionController::usageChanged, this, &SessionPane::updateUsage);
    const auto revertChanged = [this] {
        // Counted in prompts, as the person sent them; a cut inside an
        // answer still undid (part of) one.
        ChatModel *chat = m_controller->chat();
        int hidden = 0;
        int prompts = 0;
        for (int row = chat->rowCount() - 1; row >= 0 && chat->isHidden(row); --row) {
            ++hidden;
            const MessageWithParts *message = chat->message(row);
            if (message && message->info.isUser())
                ++prompts;
        }
        m_revert->setUndone(hidden > 0 ? std::max(prompts, 1) : 0, m_controller->revertedFiles());
    };
    connect(controller->chat(), &ChatModel::revertChanged, this, revertChanged);
    connect(controller->chat(), &QAbstractItemModel::modelReset, this, revertChanged);
    updateTitle();
    updateUsage();
}

void SessionPane::connectPromptBox()
{
    connect(m_prompt, &PromptBox::submitted, m_controller, &SessionController::send);
    // Sending jumps to the bottom, wherever the view was, and follows the answer.
    connect(m_prompt, &PromptBox::submitted, m_chat, &ChatView::scrollToBottom);
    connect(m_prompt, &PromptBox::stopRequested, m_controller, &SessionController::abort);
    connect(m_prompt, &PromptBox::builtinCommandRequested, this, &SessionPane::runBuiltin);
    connect(m_controller, &SessionController::promptRestored, m_prompt, [this](const QString &text) {
        if (m_prompt->text().trimmed().isEmpty())
            m_prompt->setText(text);
    });
    connect(m_controller, &SessionController::promptRedone, m_prompt, [this](const QString &text) {
        if (m_prompt->text().trimmed() == text.trimmed())
            m_prompt->setText(QString());
    });
    connect(m_controller, &SessionController::projectOpened, m_prompt,
            [this](const QString &directory) { m_prompt->setProjectDirectory(directory); });
    const auto updateBusy = [this] { m_prompt->setBusy(m_controller->isBusy(m_controller->currentSession())); };
    connect(m_controller, &SessionController::currentSessionChanged, m_prompt, updateBusy);
    connect(m_controller, &SessionController::sessionStatusChanged, m_prompt, updateBusy);
    connect(m_controller, &SessionController::currentSessionChanged, m_prompt, [this] { m_prompt->editor()->setFocus(); });

    connect(m_controller, &SessionController::projectDescribed, this, &SessionPane::applyProject);
    connect(m_prompt, &PromptBox::modelChanged, this, [this] {
        setContextLimit(ProjectChoices::contextLimit(m_controller->project(), m_prompt->currentModel()));
    });
    const auto showQueued = [this] { m_prompt->setQueued(m_controller->queued(m_controller->currentSession())); };
    connect(m_controller, &SessionController::queuedChanged, m_prompt, showQueued);
    connect(m_controller, &SessionController::currentSessionChanged, m_prompt, showQueued);
    connect(m_prompt, &PromptBox::queuedEdited, m_controller, &SessionController::editQueued);
    connect(m_prompt, &PromptBox::queuedRemoved, m_controller, &SessionController::removeQueued);
    connect(m_prompt, &PromptBox::queuedSendNowRequested, m_controller, &SessionController::sendQueuedNow);
}

// The engine described the open project: its pickers, its default agent
// and model (unless the person already chose others), and its config
// problems, said once in the prompt box rather than at the first send.
void SessionPane::applyProject()
{
    const ProjectSummary &project = m_controller->project();
    const QString chosenAgent = m_prompt->currentAgent();
    const std::optional<ModelChoice> chosenModel = m_prompt->currentModel();
    const QList<AgentChoice> agents = ProjectChoices::agents(project);
    const QList<ModelChoice> models = ProjectChoices::models(project);
    m_prompt->setAgents(agents);
    m_prompt->setModels(models);
    m_prompt->setCommands(ProjectChoices::commands(project));
    const bool agentStays = std::any_of(agents.begin(), agents.end(),
                                        [&](const AgentChoice &agent) { return agent.name == chosenAgent; });
    if (!agentStays && !project.defaultAgent.isEmpty())
        m_prompt->setCurrentAgent(project.defaultAgent);
    const bool modelStays = chosenModel && std::any_of(models.begin(), models.end(), [&](const ModelChoice &model) {
                                return model.isSameModel(*chosenModel);
                            });
    if (!modelStays)
        m_prompt->setCurrentModel(ProjectChoices::defaultModel(project));
    if (!project.problems.isEmpty())
        m_prompt->showNotice(project.problems);
    // The engine refuses the prompts anyway; refusing here keeps the text.
    m_configErrors->setErrors(project.configErrors);
    m_prompt->setSendRefusal(project.configErrors.isEmpty()
                                 ? QString()
                                 : tr("Not sent: fix %1 first (see above), then reload.")
                                       .arg(project.configErrors.constFirst().toString()));
    m_noProvider->setProject(project);
    m_prompt->setSendingBlocked(project.models.isEmpty() && project.configErrors.isEmpty()
                                    ? NoProviderBanner::sendingNotice()
                                    : QString());
    setContextLimit(ProjectChoices::contextLimit(project, m_prompt->currentModel()));
}

// A session opened again goes on with the agent and model its newest
// prompt used, as OpenCode does; a new one keeps the person's choice.
void SessionPane::restoreSessionChoices()
{
    const std::optional<Message> last = m_controller->lastUserMessage(m_controller->currentSession());
    const UserMessage *user = last ? last->user() : nullptr;
    if (!user)
        return;
    const ProjectSummary &project = m_controller->project();
    // Before the engine has described the project any name is taken;
    // applyProject() checks it once the agents are known.
    const bool agentFits = project.agents.isEmpty()
                           || std::any_of(project.agents.begin(), project.agents.end(), [user](const AgentSummary &agent) {
                                  return agent.name == user->agent && agent.mode != AgentMode::Subagent && !agent.hidden;
                              });
    if (!user->agent.isEmpty() && agentFits)
        m_prompt->setCurrentAgent(user->agent);
    if (!user->model.providerID.isEmpty() && !user->model.modelID.isEmpty()) {
        m_prompt->setCurrentModel(ProjectChoices::model(project, user->model));
        setContextLimit(ProjectChoices::contextLimit(project, m_prompt->currentModel()));
    }
}

void SessionPane::runBuiltin(const QString &name, const QString &arguments)
{
    if (name == "new"_L1)
        m_controller->newSession();
    else if (name == "compact"_L1)
        m_controller->compact();
    else if (name == "undo"_L1)
        m_controller->undo();
    else if (name == "redo"_L1)
        m_controller->redo();
    else if (name == "export"_L1)
        Q_EMIT exportRequested(arguments);
    else if (name == "models"_L1)
        m_prompt->openModelPicker();
    else if (name == "agents"_L1)
        m_prompt->openAgentPicker();
}

void SessionPane::addHeaderAction(QAction *action)
{
    auto *button = new QToolButton(this);
    button->setDefaultAction(action);
    button->setAutoRaise(true);
    button->setToolButtonStyle(Qt::ToolButtonTextOnly);
    m_headerLayout->addWidget(button);
}

void SessionPane::setContextLimit(qint64 limit)
{
    m_contextLimit = limit;
    updateUsage();
}

void SessionPane::updateTitle()
{
    const QString id = m_controller->currentSession();
    const QModelIndex index = m_controller->sessions()->indexOf(id);
    const QString shown = index.isValid() ? index.data(Qt::DisplayRole).toString() : QString();
    m_title->setText(index.isValid() ? shown : id.isEmpty() ? tr("No session open") : tr("New session"));
    m_title->setToolTip(shown);
}

void SessionPane::changeEvent(QEvent *event)
{
    QWidget::changeEvent(event);
    if (event->type() != QEvent::LanguageChange)
        return;
    updateTitle();
    // The model picker's group names ("Configured", "Local servers").
    m_prompt->setModels(ProjectChoices::models(m_controller->project()));
}

void SessionPane::updateUsage()
{
    m_meter->setUsage(m_controller->contextTokens(), m_contextLimit, m_controller->sessionCost());
}

} // namespace qcode
