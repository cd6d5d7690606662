#include "PromptBox.h"

#include <QDir>
#include <QDragEnterEvent>
#include <QEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QMimeData>
#include <QPushButton>
#include <QShortcut>
#include <QStyle>
#include <QToolButton>
#include <QUrl>
#include <QVBoxLayout>

#include "AgentPicker.h"
#include "AttachmentBar.h"
#include "AttachmentChip.h"
#include "ModelPicker.h"
#include "NoticeLabel.h"
#include "ProjectFileIndex.h"
#include "PromptCompleter.h"
#include "PromptEditor.h"
#include "PromptLogging.h"
#include "PromptTextParser.h"
#include "QueuedPromptList.h"
#include "QueuedPromptRow.h"

using namespace Qt::StringLiterals;

namespace qcode {
namespace {

QString keys(const QKeySequence &sequence)
{
    return sequence.toString(QKeySequence::NativeText);
}

} // namespace

PromptBox::PromptBox(QWidget *parent) : QWidget(parent)
{
    setObjectName(u"promptBox"_s);
    setAcceptDrops(true);
    m_files = new ProjectFileIndex(this);
    buildLayout();

    m_completer = new PromptCompleter(m_editor);
    m_editor->setKeyInterceptor([this](QKeyEvent *event) { return handleEditorKey(event); });
    m_editor->setMimeHandler([this](const QMimeData *mime, bool dropped) {
        return takeMimeData(mime, dropped ? AttachmentIntake::Source::Drop : AttachmentIntake::Source::Paste);
    });
    connect(m_editor, &PromptEditor::submitRequested, this, &PromptBox::submit);
    connect(m_completer, &PromptCompleter::sendRequested, this, &PromptBox::submit);
    connect(m_completer, &PromptCompleter::fileChosen, this,
            [this](const QString &path) { m_pickedFiles.insert(path); });
    connect(m_completer, &PromptCompleter::openChanged, this, [this] { updateButtons(); });
    connect(m_files, &ProjectFileIndex::ready, this, [this] { m_completer->setPaths(m_files->paths()); });
    connect(m_files, &ProjectFileIndex::failed, this, [this](const QString &message) {
        showNotice({tr("The project's files could not be listed for @ mentions: %1").arg(message)});
    });

    connect(m_agentPicker, &AgentPicker::agentChosen, this, &PromptBox::agentChanged);
    connect(m_modelPicker, &ModelPicker::modelChosen, this, [this](const ModelChoice &model) {
        Q_EMIT modelChanged(model);
        m_editor->setFocus(Qt::OtherFocusReason);
    });
    connect(m_chipBar, &AttachmentBar::changed, this, &PromptBox::updateTabOrder);
    connect(m_chipBar, &AttachmentBar::focusLeft, this, [this] { m_editor->setFocus(Qt::OtherFocusReason); });
    connect(m_queued, &QueuedPromptList::edited, this, &PromptBox::queuedEdited);
    connect(m_queued, &QueuedPromptList::removed, this, &PromptBox::queuedRemoved);
    connect(m_queued, &QueuedPromptList::sendNowRequested, this, &PromptBox::queuedSendNowRequested);
    connect(m_send, &QPushButton::clicked, this, &PromptBox::submit);
    connect(m_stop, &QPushButton::clicked, this, &PromptBox::stopRequested);

    auto *modelShortcut = new QShortcut(ModelPicker::shortcut(), this);
    modelShortcut->setContext(Qt::WindowShortcut);
    connect(modelShortcut, &QShortcut::activated, this, &PromptBox::openModelPicker);

    m_history.setProject(QString());
    updateCommands();
    updateButtons();
    updateTabOrder();
    setFocusProxy(m_editor);
}

PromptBox::~PromptBox() = default;

void PromptBox::buildLayout()
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);

    m_queued = new QueuedPromptList(this);
    layout->addWidget(m_queued);

    m_chipBar = new AttachmentBar(this);
    layout->addWidget(m_chipBar);

    m_notice = new NoticeLabel(this);
    layout->addWidget(m_notice);

    m_editor = new PromptEditor(this);
    m_editor->setObjectName(u"promptEditor"_s);
    m_editor->setMinimumLines(2);
    layout->addWidget(m_editor);

    auto *row = new QHBoxLayout;
    m_attach = new QToolButton(this);
    m_attach->setObjectName(u"attachButton"_s);
    m_attach->setIcon(style()->standardIcon(QStyle::SP_FileDialogStart));
    m_attach->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    m_attach->setAutoRaise(true);
    connect(m_attach, &QToolButton::clicked, this, &PromptBox::chooseAttachments);
    row->addWidget(m_attach);
    m_agentPicker = new AgentPicker(this);
    m_modelPicker = new ModelPicker(this);
    row->addWidget(m_agentPicker);
    row->addWidget(m_modelPicker, 0);
    row->addStretch(1);
    m_stop = new QPushButton(style()->standardIcon(QStyle::SP_MediaStop), QString(), this);
    m_stop->setObjectName(u"stopButton"_s);
    m_send = new QPushButton(this);
    m_send->setObjectName(u"sendButton"_s);
    m_send->setDefault(false);
    row->addWidget(m_stop);
    row->addWidget(m_send);
    layout->addLayout(row);
    retranslateUi();
}

void PromptBox::retranslateUi()
{
    m_editor->setPlaceholderText(tr("Ask anything. @ mentions a file or an agent, / runs a command, ! a shell "
                                    "command."));
    m_editor->setToolTip(tr("Enter sends, Shift+Enter starts a new line; Up and Down recall earlier prompts; "
                            "Ctrl+. switches the agent; Tab moves on"));
    m_attach->setText(tr("Attach…"));
    m_attach->setToolTip(tr("Attach files or images (or drop them here, or paste them)"));
    m_stop->setText(tr("Stop"));
    m_stop->setToolTip(tr("Stop the agent (%1)").arg(keys(QKeySequence(Qt::Key_Escape))));
    m_send->setText(tr("Send"));
    m_send->setToolTip(tr("Send (%1 or %2); %3 starts a new line")
                           .arg(keys(QKeySequence(Qt::Key_Return)), keys(QKeySequence(Qt::CTRL | Qt::Key_Return)),
                                keys(QKeySequence(Qt::SHIFT | Qt::Key_Return))));
}

void PromptBox::changeEvent(QEvent *event)
{
    QWidget::changeEvent(event);
    if (event->type() != QEvent::LanguageChange)
        return;
    retranslateUi();
    updateCommands(); // the built-in commands' descriptions in the "/" popup
}

QList<SlashCommand> PromptBox::builtinCommands()
{
    return {
        {u"new"_s, tr("Start a new session"), true},
        {u"compact"_s, tr("Summarize the session to free the model's context"), true},
        {u"undo"_s, tr("Undo the last message and the file changes it made"), true},
        {u"redo"_s, tr("Bring back what undo took away"), true},
        {u"export"_s, tr("Export the session as Markdown"), true},
        {u"models"_s, tr("Choose the model"), true},
        {u"agents"_s, tr("Choose the agent"), true},
    };
}

void PromptBox::setProjectDirectory(const QString &dir)
{
    m_projectDirectory = dir.isEmpty() ? QString() : QDir::cleanPath(dir);
    m_history.setProject(m_projectDirectory);
    m_completer->setPaths({});
    m_files->setDirectory(m_projectDirectory);
}

void PromptBox::setAgents(const QList<AgentChoice> &agents)
{
    m_agents = agents;
    m_agentPicker->setAgents(agents);
    m_completer->setAgents(agents);
}

void PromptBox::setCurrentAgent(const QString &name)
{
    m_agentPicker->setCurrentAgent(name);
}

QString PromptBox::currentAgent() const
{
    return m_agentPicker->currentAgent();
}

void PromptBox::setModels(const QList<ModelChoice> &models)
{
    m_modelPicker->setModels(models);
}

void PromptBox::setCurrentModel(const std::optional<ModelChoice> &m)
{
    m_modelPicker->setCurrentModel(m);
}

std::optional<ModelChoice> PromptBox::currentModel() const
{
    return m_modelPicker->currentModel();
}

void PromptBox::setCommands(const QList<SlashCommand> &custom)
{
    m_customCommands.clear();
    for (SlashCommand command : custom) {
        if (isBuiltin(command.name)) {
            qCWarning(lcPrompt) << "a custom command has a built-in's name and is left out:" << command.name;
            continue;
        }
        command.builtin = false;
        m_customCommands.append(command);
    }
    updateCommands();
}

void PromptBox::updateCommands()
{
    m_completer->setCommands(builtinCommands() + m_customCommands);
}

bool PromptBox::isBuiltin(const QString &name)
{
    const QList<SlashCommand> builtins = builtinCommands();
    return std::any_of(builtins.cbegin(), builtins.cend(),
                       [&](const SlashCommand &command) { return command.name == name; });
}

QSet<QString> PromptBox::commandNames() const
{
    QSet<QString> names;
    for (const SlashCommand &command : builtinCommands() + m_customCommands)
        names.insert(command.name);
    return names;
}

void PromptBox::setBusy(bool busy)
{
    m_busy = busy;
    updateButtons();
}

void PromptBox::updateButtons()
{
    m_stop->setVisible(m_busy);
    m_send->setVisible(!m_busy);
    m_editor->setClaimsEscape(m_busy || m_completer->isOpen());
}

void PromptBox::setQueued(const QList<QueuedPrompt> &queued)
{
    m_queued->setQueued(queued);
    updateTabOrder();
}

void PromptBox::updateTabOrder()
{
    QList<QWidget *> order;
    for (QueuedPromptRow *row : m_queued->rows())
        order << row << row->editButton() << row->removeButton();
    for (AttachmentChip *chip : m_chipBar->chips())
        order << chip->removeButton();
    order << m_editor << m_attach << m_agentPicker << m_modelPicker << m_stop << m_send;
    for (qsizetype i = 1; i < order.size(); ++i)
        setTabOrder(order.at(i - 1), order.at(i));
}

QString PromptBox::text() const
{
    return m_editor->toPlainText();
}

void PromptBox::setText(const QString &text)
{
    m_history.endWalk();
    m_editor->setPlainText(text);
    m_editor->moveCursor(QTextCursor::End);
}

QPlainTextEdit *PromptBox::editor() const
{
    return m_editor;
}

QString PromptBox::notice() const
{
    return m_notice->text();
}

void PromptBox::showNotice(const QStringList &messages)
{
    m_notice->showMessages(messages);
}

void PromptBox::openModelPicker()
{
    m_modelPicker->openPopup();
}

void PromptBox::openAgentPicker()
{
    m_agentPicker->openMenu();
}

bool PromptBox::handleEditorKey(QKeyEvent *event)
{
    if (m_completer->handleKey(event))
        return true;
    const Qt::KeyboardModifiers modifiers = event->modifiers() & ~Qt::KeypadModifier;
    switch (event->key()) {
    case Qt::Key_Up:
        return modifiers == Qt::NoModifier && (text().isEmpty() || m_editor->isCursorOnFirstLine()) && recall(true);
    case Qt::Key_Down:
        return modifiers == Qt::NoModifier && m_history.isWalking() && m_editor->isCursorOnLastLine()
            && recall(false);
    case Qt::Key_Period:
    case Qt::Key_Greater:
        // Ctrl+. and Ctrl+Shift+. switch agents; Tab moves the focus on.
        if (!modifiers.testFlag(Qt::ControlModifier))
            return false;
        m_agentPicker->cycle(modifiers.testFlag(Qt::ShiftModifier) || event->key() == Qt::Key_Greater ? -1 : 1);
        return true;
    case Qt::Key_Escape:
        if (!m_busy)
            return false;
        Q_EMIT stopRequested();
        return true;
    default:
        return false;
    }
}

bool PromptBox::recall(bool older)
{
    const std::optional<QString> recalled = older ? m_history.previous(text()) : m_history.next();
    if (!recalled)
        return false;
    m_editor->setPlainText(*recalled);
    // Going back the cursor waits at the top, so the next Up goes further
    // back; going forward it waits at the bottom.
    m_editor->moveCursor(older ? QTextCursor::Start : QTextCursor::End);
    return true;
}

void PromptBox::chooseAttachments()
{
    auto *dialog = new QFileDialog(this, tr("Attach Files"), m_projectDirectory);
    dialog->setObjectName(u"attachDialog"_s);
    dialog->setFileMode(QFileDialog::ExistingFiles);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &QFileDialog::filesSelected, this, &PromptBox::attachFiles);
    dialog->open();
}

void PromptBox::attachFiles(const QStringList &paths)
{
    QList<QUrl> urls;
    for (const QString &path : paths)
        urls.append(QUrl::fromLocalFile(path));
    QMimeData mime;
    mime.setUrls(urls);
    takeMimeData(&mime, AttachmentIntake::Source::Drop);
    m_editor->setFocus();
}

bool PromptBox::addDroppedMimeData(const QMimeData *mime)
{
    const qsizetype before = m_chipBar->chips().size();
    takeMimeData(mime, AttachmentIntake::Source::Drop);
    return m_chipBar->chips().size() > before;
}

bool PromptBox::takeMimeData(const QMimeData *mime, AttachmentIntake::Source source)
{
    const AttachmentIntake::Outcome outcome = AttachmentIntake::fromMimeData(mime, attachments(), source);
    for (const PromptAttachment &attachment : outcome.added)
        addAttachment(attachment);
    if (!outcome.problems.isEmpty()) {
        qCInfo(lcPrompt) << "refused attachments:" << outcome.problems;
        showNotice(outcome.problems);
    }
    return outcome.offered;
}

void PromptBox::addAttachment(const PromptAttachment &a)
{
    m_chipBar->add(a);
}

void PromptBox::removeAttachment(int index)
{
    m_chipBar->removeAt(index);
}

QList<PromptAttachment> PromptBox::attachments() const
{
    return m_chipBar->attachments();
}

QList<AttachmentChip *> PromptBox::chips() const
{
    return m_chipBar->chips();
}

void PromptBox::dragEnterEvent(QDragEnterEvent *event)
{
    if (event->mimeData()->hasUrls() || event->mimeData()->hasImage())
        event->acceptProposedAction();
}

void PromptBox::dropEvent(QDropEvent *event)
{
    takeMimeData(event->mimeData(), AttachmentIntake::Source::Drop);
    event->acceptProposedAction();
}

void PromptBox::keyPressEvent(QKeyEvent *event)
{
    // Escape from anywhere in the box (a chip, a button) stops too.
    if (event->key() == Qt::Key_Escape && m_busy) {
        Q_EMIT stopRequested();
        return;
    }
    QWidget::keyPressEvent(event);
}

void PromptBox::findMentions(PromptSubmission &submission) const
{
    QSet<QString> agentNames;
    for (const AgentChoice &agent : m_agents)
        agentNames.insert(agent.name);
    const QDir project(m_projectDirectory);
    for (const PromptTextParser::Token &token : PromptTextParser::mentions(submission.text)) {
        if (agentNames.contains(token.text)) {
            if (!submission.mentionedAgents.contains(token.text))
                submission.mentionedAgents.append(token.text);
            continue;
        }
        // A path typed out in full counts as much as one picked in the popup.
        const bool known = m_pickedFiles.contains(token.text) || m_files->contains(token.text)
            || (!m_projectDirectory.isEmpty() && QFileInfo::exists(project.absoluteFilePath(token.text)));
        if (known && !submission.mentionedFiles.contains(token.text))
            submission.mentionedFiles.append(token.text);
    }
}

void PromptBox::setSendRefusal(const QString &reason)
{
    m_sendRefusal = reason;
}

void PromptBox::submit()
{
    const QString typed = text();
    if (typed.trimmed().isEmpty() && m_chipBar->chips().isEmpty())
        return;
    const PromptTextParser::Parsed parsed = PromptTextParser::parse(typed, commandNames());
    if (parsed.kind == PromptSubmission::Kind::Command && isBuiltin(parsed.command)) {
        // Attachments stay for the prompt that follows.
        m_history.add(typed.trimmed());
        m_editor->clear();
        m_completer->close();
        Q_EMIT builtinCommandRequested(parsed.command, parsed.text);
        return;
    }
    if (!m_sendRefusal.isEmpty()) {
        showNotice({m_sendRefusal});
        return;
    }
    if (parsed.kind == PromptSubmission::Kind::Shell && parsed.text.isEmpty()) {
        showNotice({tr("Type a shell command after the \"!\".")});
        return;
    }
    if (!m_blockedReason.isEmpty()) {
        showNotice({m_blockedReason});
        return;
    }

    PromptSubmission submission;
    submission.kind = parsed.kind;
    submission.text = parsed.text;
    submission.command = parsed.command;
    submission.attachments = attachments();
    // In a shell command "@" is the shell's ("git log @{u}").
    if (parsed.kind != PromptSubmission::Kind::Shell)
        findMentions(submission);
    submission.agent = currentAgent();
    submission.model = currentModel();

    m_history.add(typed.trimmed());
    clearAfterSending();
    Q_EMIT submitted(submission);
}

void PromptBox::clearAfterSending()
{
    m_editor->clear();
    m_completer->close();
    m_pickedFiles.clear();
    m_chipBar->clear();
}

} // namespace qcode
