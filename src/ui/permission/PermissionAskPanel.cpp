#include "PermissionAskPanel.h"

#include <QEvent>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QVBoxLayout>

#include "DetailBox.h"
#include "PermissionDescription.h"
#include "PermissionDiffBox.h"

using namespace Qt::StringLiterals;

namespace qcode {
namespace {

constexpr int TextLines = 6;  // a command or a list of paths before it scrolls
constexpr int DiffLines = 16; // a diff before it scrolls

QLabel *wrappedLabel(QWidget *parent)
{
    auto *label = new QLabel(parent);
    label->setTextFormat(Qt::PlainText); // descriptions come from the model
    label->setWordWrap(true);
    label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    return label;
}

} // namespace

PermissionAskPanel::PermissionAskPanel(const PermissionRequest &request, QWidget *parent)
    : QWidget(parent)
    , m_request(request)
{
    setObjectName(u"permissionAsk"_s);
    const PermissionDescription description = PermissionDescription::describe(request);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(10, 4, 10, 8);
    layout->setSpacing(6);

    m_actionLabel = wrappedLabel(this);
    m_actionLabel->setObjectName(u"actionLabel"_s);
    QFont bold = m_actionLabel->font();
    bold.setBold(true);
    m_actionLabel->setFont(bold);
    layout->addWidget(m_actionLabel);
    if (!description.note.isEmpty()) {
        auto *note = wrappedLabel(this);
        note->setObjectName(u"noteLabel"_s);
        note->setText(description.note);
        layout->addWidget(note);
    }
    for (const PermissionDescription::Detail &detail : description.details) {
        auto *label = wrappedLabel(this);
        DetailBox *box = nullptr;
        if (detail.kind == PermissionDescription::Detail::Kind::Diff) {
            // Coloured, never the raw patch (issue 19).
            auto *diff = new PermissionDiffBox(DiffLines, this);
            diff->setObjectName(u"askDiff"_s);
            diff->setDiff(detail.text);
            box = diff;
        } else {
            box = new DetailBox(TextLines, this);
            box->setPlainText(detail.text);
        }
        label->setBuddy(box);
        layout->addWidget(label);
        layout->addWidget(box);
        m_detailLabels.append(label);
        m_detailBoxes.append(box);
    }

    auto *buttons = new QHBoxLayout;
    m_allowOnce = new QPushButton(this);
    m_allowOnce->setObjectName(u"allowOnceButton"_s);
    connect(m_allowOnce, &QPushButton::clicked, this, [this] { answer(PermissionReply::Once); });
    buttons->addWidget(m_allowOnce);
    if (!description.alwaysSubject.isEmpty()) {
        m_alwaysSession = new QPushButton(this);
        m_alwaysSession->setObjectName(u"alwaysSessionButton"_s);
        connect(m_alwaysSession, &QPushButton::clicked, this,
                [this] { answer(PermissionReply::Always, {}, ApprovalScope::Session); });
        m_alwaysProject = new QPushButton(this);
        m_alwaysProject->setObjectName(u"alwaysProjectButton"_s);
        connect(m_alwaysProject, &QPushButton::clicked, this,
                [this] { answer(PermissionReply::Always, {}, ApprovalScope::Project); });
        buttons->addWidget(m_alwaysSession);
        buttons->addWidget(m_alwaysProject);
    }
    m_reject = new QPushButton(this);
    m_reject->setObjectName(u"rejectButton"_s);
    connect(m_reject, &QPushButton::clicked, this, [this] { answer(PermissionReply::Reject); });
    buttons->addWidget(m_reject);
    buttons->addStretch(1);
    layout->addLayout(buttons);
    if (m_alwaysSession) {
        m_alwaysNote = wrappedLabel(this);
        m_alwaysNote->setObjectName(u"alwaysNote"_s);
        m_alwaysNote->setForegroundRole(QPalette::PlaceholderText); // quieter, in light and dark themes alike
        layout->addWidget(m_alwaysNote);
    }

    m_messageLabel = wrappedLabel(this);
    m_message = new QLineEdit(this);
    m_message->setObjectName(u"messageEdit"_s);
    m_message->installEventFilter(this);
    m_messageLabel->setBuddy(m_message);
    m_send = new QPushButton(this);
    m_send->setObjectName(u"sendButton"_s);
    m_send->setEnabled(false);
    connect(m_message, &QLineEdit::textChanged, this,
            [this](const QString &text) { m_send->setEnabled(!text.trimmed().isEmpty()); });
    connect(m_send, &QPushButton::clicked, this, &PermissionAskPanel::sendMessage);
    auto *messageRow = new QHBoxLayout;
    messageRow->addWidget(m_message, 1);
    messageRow->addWidget(m_send);
    layout->addWidget(m_messageLabel);
    layout->addLayout(messageRow);
    retranslateUi();
}

void PermissionAskPanel::retranslateUi()
{
    const PermissionDescription description = PermissionDescription::describe(m_request);
    m_actionLabel->setText(description.action);
    for (qsizetype i = 0; i < m_detailLabels.size() && i < description.details.size(); ++i) {
        m_detailLabels.at(i)->setText(description.details.at(i).label);
        m_detailBoxes.at(i)->setAccessibleName(description.details.at(i).label);
    }
    m_allowOnce->setText(tr("Allow &once"));
    m_reject->setText(tr("&Reject"));
    m_reject->setToolTip(tr("The agent stops and waits for your next message."));
    if (m_alwaysSession) {
        m_alwaysSession->setText(description.alwaysText(ApprovalScope::Session));
        m_alwaysSession->setToolTip(tr("Until this session ends, without asking:\n%1").arg(description.alwaysTooltip));
        m_alwaysProject->setText(description.alwaysText(ApprovalScope::Project));
        m_alwaysProject->setToolTip(tr("In every session of this project, without asking; saved, and listed in "
                                       "Settings to take back:\n%1")
                                        .arg(description.alwaysTooltip));
        m_alwaysNote->setText(tr("“Always”: %1").arg(description.alwaysCovers));
    }
    m_messageLabel->setText(tr("Or &tell the agent what to do instead:"));
    m_send->setText(tr("Se&nd"));
}

void PermissionAskPanel::changeEvent(QEvent *event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::LanguageChange)
        retranslateUi();
}

bool PermissionAskPanel::eventFilter(QObject *watched, QEvent *event)
{
    // Enter in the message field sends it, and goes no further.
    if (watched == m_message && event->type() == QEvent::KeyPress) {
        const auto *key = static_cast<QKeyEvent *>(event);
        if (key->key() == Qt::Key_Return || key->key() == Qt::Key_Enter) {
            sendMessage();
            return true;
        }
    }
    return QWidget::eventFilter(watched, event);
}

void PermissionAskPanel::sendMessage()
{
    const QString message = m_message->text().trimmed();
    if (!message.isEmpty())
        answer(PermissionReply::RejectWithMessage, message);
}

void PermissionAskPanel::answer(PermissionReply reply, const QString &message, ApprovalScope scope)
{
    if (m_answered)
        return;
    m_answered = true;
    setEnabled(false); // until the card takes the panel away
    Q_EMIT answered(m_request.id, reply, message, scope);
}

} // namespace qcode
