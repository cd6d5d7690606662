#include "MessageWidget.h"

#include <QApplication>
#include <QClipboard>
#include <QContextMenuEvent>
#include <QEvent>
#include <QLabel>
#include <QLocale>
#include <QMenu>
#include <QPushButton>
#include <QStyle>
#include <QToolButton>
#include <QVBoxLayout>

#include "ChatColors.h"
#include "PartWidgetFactory.h"

using namespace Qt::StringLiterals;

namespace qcode {
namespace {

QString tokens(qint64 count)
{
    return QLocale().toString(count);
}

// The message that asked for a summary is drawn as a divider, not as words
// the person wrote.
bool asksForCompaction(const MessageWithParts &message)
{
    return std::any_of(message.parts.begin(), message.parts.end(),
                       [](const Part &part) { return std::holds_alternative<CompactionPart>(part.body); });
}

} // namespace

MessageWidget::MessageWidget(const ChatContext &context, QWidget *parent) : QFrame(parent), m_context(context)
{
    setObjectName(u"message"_s);
    auto *outer = new QVBoxLayout(this);
    outer->setContentsMargins(16, 6, 16, 6);
    outer->setSpacing(4);
    m_summaryToggle = new QToolButton(this);
    m_summaryToggle->setObjectName(u"summaryToggle"_s);
    m_summaryToggle->setCheckable(true);
    m_summaryToggle->setAutoRaise(true);
    m_summaryToggle->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    m_summaryToggle->hide();
    connect(m_summaryToggle, &QToolButton::toggled, this, [this](bool open) {
        m_summaryToggle->setArrowType(open ? Qt::DownArrow : Qt::RightArrow);
        m_body->setVisible(open);
    });
    outer->addWidget(m_summaryToggle, 0, Qt::AlignLeft);
    m_body = new QFrame(this);
    m_body->setObjectName(u"messageBody"_s);
    m_partsLayout = new QVBoxLayout(m_body);
    m_partsLayout->setContentsMargins(0, 0, 0, 0);
    m_partsLayout->setSpacing(6);
    outer->addWidget(m_body);

    m_error = new QFrame(this);
    m_error->setObjectName(u"messageError"_s);
    m_error->setFrameShape(QFrame::StyledPanel);
    m_error->setAutoFillBackground(true);
    auto *errorLayout = new QHBoxLayout(m_error);
    errorLayout->setContentsMargins(8, 6, 8, 6);
    m_errorIcon = new QLabel(m_error);
    m_errorIcon->setObjectName(u"errorIcon"_s);
    errorLayout->addWidget(m_errorIcon, 0, Qt::AlignTop);
    m_errorText = new QLabel(m_error);
    m_errorText->setObjectName(u"errorText"_s);
    m_errorText->setWordWrap(true);
    m_errorText->setTextFormat(Qt::PlainText);
    m_errorText->setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::TextSelectableByKeyboard);
    errorLayout->addWidget(m_errorText, 1);
    m_retry = new QPushButton(m_error);
    m_retry->setObjectName(u"retryButton"_s);
    connect(m_retry, &QPushButton::clicked, this, [this] { Q_EMIT retryRequested(m_messageID); });
    errorLayout->addWidget(m_retry, 0, Qt::AlignTop);
    m_openSettings = new QPushButton(m_error);
    m_openSettings->setObjectName(u"openSettingsButton"_s);
    connect(m_openSettings, &QPushButton::clicked, this, &MessageWidget::settingsRequested);
    errorLayout->addWidget(m_openSettings, 0, Qt::AlignTop);
    m_error->hide();
    outer->addWidget(m_error);
    retranslateUi();
}

void MessageWidget::retranslateUi()
{
    m_retry->setText(tr("Retry"));
    m_retry->setToolTip(tr("Run this step again"));
    m_openSettings->setText(tr("Open Settings"));
    m_openSettings->setToolTip(tr("Check or replace the provider's key"));
    m_summaryToggle->setText(tr("Summary of the earlier conversation"));
    m_summaryToggle->setToolTip(tr("What the model was told of the messages above the divider; click to show or hide it"));
    showError();
    updateToolTip();
}

void MessageWidget::changeEvent(QEvent *event)
{
    QFrame::changeEvent(event);
    if (event->type() == QEvent::LanguageChange)
        retranslateUi();
}

MessageWidget::~MessageWidget() = default;

void MessageWidget::setMessage(const MessageWithParts &message, const std::optional<RevertCut> &cut)
{
    for (PartWidget *widget : std::as_const(m_parts))
        delete widget;
    m_parts.clear();
    m_messageID = message.info.id();
    m_cut = cut && cut->messageID == m_messageID ? cut : std::nullopt;
    m_info = message.info;
    if (message.info.isUser() && !asksForCompaction(message)) {
        // The person's words stand apart from the agent's: a bubble.
        m_body->setAutoFillBackground(true);
        QPalette palette = m_body->palette();
        palette.setColor(QPalette::Window, ChatColors::bubble(this->palette()));
        m_body->setPalette(palette);
        m_partsLayout->setContentsMargins(10, 8, 10, 8);
    }
    for (const Part &part : message.parts) {
        PartWidget *widget = makePartWidget(part);
        m_parts.append(widget);
        if (widget)
            m_partsLayout->addWidget(widget);
    }
    showError();
    updateToolTip();
    updateSummaryFold();
}

void MessageWidget::setInfo(const Message &info)
{
    m_info = info;
    showError();
    updateToolTip();
    updateSummaryFold();
}

// A summary is long and says again what the chat above already shows:
// folded under one line until the person opens it.
void MessageWidget::updateSummaryFold()
{
    const AssistantMessage *assistant = m_info.assistant();
    const bool summary = assistant && assistant->isSummary();
    if (summary == m_isSummary)
        return;
    m_isSummary = summary;
    m_summaryToggle->setVisible(summary);
    m_summaryToggle->setChecked(false);
    m_summaryToggle->setArrowType(Qt::RightArrow);
    m_body->setVisible(!summary);
}

void MessageWidget::insertPart(int index, const Part &part)
{
    PartWidget *widget = makePartWidget(part);
    m_parts.insert(index, widget);
    if (widget)
        m_partsLayout->insertWidget(layoutPosition(index), widget);
}

void MessageWidget::updatePart(int index, const Part &part)
{
    if (index < 0 || index >= m_parts.size())
        return;
    PartWidget *widget = m_parts.at(index);
    if (widget && !hiddenByCut(part) && isVisiblePart(part)) {
        widget->setPart(part, m_info);
        return;
    }
    // Visibility changed (a text became synthetic, a patch got files).
    delete widget;
    m_parts[index] = makePartWidget(part);
    if (m_parts.at(index))
        m_partsLayout->insertWidget(layoutPosition(index), m_parts.at(index));
}

void MessageWidget::removePart(int index)
{
    if (index < 0 || index >= m_parts.size())
        return;
    delete m_parts.takeAt(index);
}

void MessageWidget::appendDelta(int index, const Part &part, const QString &field, const QString &delta)
{
    if (index < 0 || index >= m_parts.size())
        return;
    if (PartWidget *widget = m_parts.at(index))
        widget->appendDelta(part, m_info, field, delta);
}

QString MessageWidget::markdown() const
{
    QStringList pieces;
    for (PartWidget *widget : m_parts) {
        if (!widget)
            continue;
        if (const QString text = widget->markdown(); !text.trimmed().isEmpty())
            pieces.append(text);
    }
    return pieces.join(u"\n\n"_s);
}

int MessageWidget::partWidgetCount() const
{
    return int(std::count_if(m_parts.begin(), m_parts.end(), [](PartWidget *widget) { return widget != nullptr; }));
}

PartWidget *MessageWidget::partWidget(int index) const
{
    return index >= 0 && index < m_parts.size() ? m_parts.at(index) : nullptr;
}

bool MessageWidget::hiddenByCut(const Part &part) const
{
    return m_cut && m_cut->partID && part.id >= *m_cut->partID;
}

PartWidget *MessageWidget::makePartWidget(const Part &part)
{
    if (hiddenByCut(part))
        return nullptr;
    PartWidget *widget = createPartWidget(part, m_info, m_context, m_body);
    if (widget)
        connect(widget, &PartWidget::openSessionRequested, this, &MessageWidget::openSessionRequested);
    return widget;
}

// Where the part at `index` goes among the widgets of the visible parts.
int MessageWidget::layoutPosition(int index) const
{
    int position = 0;
    for (int i = 0; i < index && i < m_parts.size(); ++i)
        position += m_parts.at(i) ? 1 : 0;
    return position;
}

void MessageWidget::showError()
{
    const AssistantMessage *assistant = m_info.assistant();
    if (!assistant || !assistant->error) {
        m_error->hide();
        return;
    }
    const NamedError &error = *assistant->error;
    const bool aborted = error.name == "MessageAbortedError"_L1;
    QPalette palette = m_errorText->palette();
    palette.setColor(QPalette::WindowText, aborted ? ChatColors::muted(this->palette()) : ChatColors::error(this->palette()));
    m_errorText->setPalette(palette);
    // A stop is the person's own doing, said quietly; a failure is boxed,
    // tinted and marked, so it reads as one at a glance.
    QPalette boxPalette = m_error->palette();
    boxPalette.setColor(QPalette::Window, aborted ? this->palette().color(QPalette::Window)
                                                  : ChatColors::errorBackground(this->palette()));
    m_error->setPalette(boxPalette);
    m_error->setAutoFillBackground(!aborted);
    m_error->setFrameShape(aborted ? QFrame::NoFrame : QFrame::StyledPanel);
    const int iconSize = style()->pixelMetric(QStyle::PM_SmallIconSize, nullptr, this);
    m_errorIcon->setPixmap(style()->standardIcon(QStyle::SP_MessageBoxCritical, nullptr, this).pixmap(iconSize, iconSize));
    m_errorIcon->setVisible(!aborted);
    const QString message = error.message().isEmpty() ? error.name : error.message();
    m_errorText->setText(aborted ? tr("Stopped.") : message);
    m_retry->setVisible(!aborted);
    const int status = error.data.value("statusCode"_L1).toInt();
    m_openSettings->setVisible(!aborted && (status == 401 || status == 403 || error.name == "ProviderAuthError"_L1));
    m_error->show();
}

void MessageWidget::updateToolTip()
{
    const AssistantMessage *assistant = m_info.assistant();
    if (!assistant) {
        setToolTip({});
        return;
    }
    QStringList lines;
    lines.append(tr("%1 · %2 (%3)").arg(assistant->agent, assistant->modelID, assistant->providerID));
    const TokenUsage &usage = assistant->tokens;
    lines.append(tr("Tokens: %1 in, %2 out").arg(tokens(usage.input), tokens(usage.output)));
    if (usage.reasoning > 0)
        lines.append(tr("Reasoning: %1").arg(tokens(usage.reasoning)));
    if (usage.cacheRead > 0 || usage.cacheWrite > 0)
        lines.append(tr("Cache: %1 read, %2 written").arg(tokens(usage.cacheRead), tokens(usage.cacheWrite)));
    lines.append(tr("Cost: $%1").arg(QLocale().toString(assistant->cost, 'f', 4)));
    if (assistant->completed) {
        const double seconds = double(*assistant->completed - assistant->created) / 1000.0;
        lines.append(tr("Took %1 s").arg(QLocale().toString(seconds, 'f', 1)));
    }
    setToolTip(lines.join(u'\n'));
}

void MessageWidget::contextMenuEvent(QContextMenuEvent *event)
{
    auto *menu = new QMenu(this);
    menu->setAttribute(Qt::WA_DeleteOnClose);
    if (QWidget *focused = QApplication::focusWidget(); focused && isAncestorOf(focused)) {
        if (auto *label = qobject_cast<QLabel *>(focused); label && label->hasSelectedText()) {
            QAction *copySelection = menu->addAction(tr("&Copy"));
            connect(copySelection, &QAction::triggered, label,
                    [label] { QGuiApplication::clipboard()->setText(label->selectedText()); });
        }
    }
    QAction *copy = menu->addAction(tr("Copy &Message"));
    connect(copy, &QAction::triggered, this, [this] { QGuiApplication::clipboard()->setText(markdown()); });
    menu->addSeparator();
    QAction *fork = menu->addAction(tr("&Fork From Here"));
    fork->setToolTip(tr("A new session with the conversation up to this message"));
    connect(fork, &QAction::triggered, this, [this] { Q_EMIT forkRequested(m_messageID); });
    if (isUser()) {
        QAction *revert = menu->addAction(tr("&Undo From Here"));
        revert->setToolTip(tr("Put the files back as they were before this message and hide what followed"));
        connect(revert, &QAction::triggered, this, [this] { Q_EMIT revertRequested(m_messageID); });
    }
    menu->popup(event->globalPos());
}

} // namespace qcode
