#include "PermissionDialog.h"

#include <QEvent>
#include <QFontDatabase>
#include <QGridLayout>
#include <QGuiApplication>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QScreen>
#include <QScrollArea>
#include <QStyle>
#include <QVBoxLayout>

#include "DetailBox.h"
#include "PermissionDiffBox.h"
#include "PermissionLogging.h"

using namespace Qt::StringLiterals;

namespace qcode {
namespace {

constexpr int TextLines = 8;  // a command or a list of paths before it scrolls
constexpr int DiffLines = 20; // a diff before it scrolls
constexpr double ScreenShare = 0.9;
constexpr int PreferredWidthInCharacters = 90; // of the details' monospace font

QLabel *wrappedLabel(const QString &text, QWidget *parent)
{
    auto *label = new QLabel(text, parent);
    label->setTextFormat(Qt::PlainText); // titles and descriptions come from the model
    label->setWordWrap(true);
    label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    return label;
}

QString sessionLine(const QString &title)
{
    return title.isEmpty() ? PermissionDialog::tr("In a session without a title")
                           : PermissionDialog::tr("In session “%1”").arg(title);
}

} // namespace

PermissionDialog::PermissionDialog(const PermissionRequest &request, const QString &sessionTitle, QWidget *parent)
    : QDialog(parent)
    , m_request(request)
    , m_sessionTitle(sessionTitle)
{
    setWindowModality(Qt::WindowModal);
    setObjectName(u"permissionDialog"_s);

    const PermissionDescription description = PermissionDescription::describe(request);
    auto *header = new QHBoxLayout;
    auto *icon = new QLabel(this);
    const int iconSize = style()->pixelMetric(QStyle::PM_MessageBoxIconSize, nullptr, this);
    icon->setPixmap(style()->standardIcon(QStyle::SP_MessageBoxQuestion, nullptr, this).pixmap(iconSize));
    icon->setAlignment(Qt::AlignTop);
    header->addWidget(icon);
    auto *titles = new QVBoxLayout;
    m_actionLabel = wrappedLabel(QString(), this);
    m_actionLabel->setObjectName(u"actionLabel"_s);
    QFont bold = m_actionLabel->font();
    bold.setBold(true);
    bold.setPointSizeF(bold.pointSizeF() * 1.2);
    m_actionLabel->setFont(bold);
    titles->addWidget(m_actionLabel);
    m_sessionLabel = wrappedLabel(QString(), this);
    titles->addWidget(m_sessionLabel);
    header->addLayout(titles, 1);

    m_scroll = new QScrollArea(this);
    m_scroll->setWidgetResizable(true);
    m_scroll->setFrameShape(QFrame::NoFrame);
    m_scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_scroll->setWidget(createDetails(description));

    auto *layout = new QVBoxLayout(this);
    layout->addLayout(header);
    layout->addWidget(m_scroll, 1);
    layout->addWidget(createAnswers(description));
    orderTabs();
    retranslateUi();

    m_arming.setSingleShot(true);
    m_arming.setInterval(ArmDelay);
    connect(&m_arming, &QTimer::timeout, this, &PermissionDialog::arm);
}

QWidget *PermissionDialog::createDetails(const PermissionDescription &description)
{
    auto *details = new QWidget;
    auto *layout = new QVBoxLayout(details);
    layout->setContentsMargins(0, 0, 0, 0);
    if (!description.note.isEmpty()) {
        auto *note = wrappedLabel(description.note, details);
        note->setObjectName(u"noteLabel"_s);
        layout->addWidget(note);
    }
    for (const PermissionDescription::Detail &detail : description.details) {
        auto *label = wrappedLabel(QString(), details);
        DetailBox *box = nullptr;
        if (detail.kind == PermissionDescription::Detail::Kind::Diff) {
            auto *diff = new PermissionDiffBox(DiffLines, details);
            diff->setDiff(detail.text);
            box = diff;
        } else {
            box = new DetailBox(TextLines, details);
            box->setPlainText(detail.text);
        }
        label->setBuddy(box);
        layout->addWidget(label);
        layout->addWidget(box);
        m_detailLabels.append(label);
        m_detailBoxes.append(box);
    }
    layout->addStretch(1);
    return details;
}

QWidget *PermissionDialog::createAnswers(const PermissionDescription &description)
{
    auto *answers = new QWidget(this);
    auto *grid = new QGridLayout(answers);
    grid->setContentsMargins(0, 0, 0, 0);

    m_messageLabel = wrappedLabel(QString(), answers);
    m_message = new QLineEdit(answers);
    m_message->setObjectName(u"messageEdit"_s);
    m_message->installEventFilter(this);
    m_messageLabel->setBuddy(m_message);
    m_send = new QPushButton(answers);
    m_send->setObjectName(u"sendButton"_s);
    m_send->setEnabled(false);
    connect(m_message, &QLineEdit::textChanged, this,
            [this](const QString &text) { m_send->setEnabled(!text.trimmed().isEmpty()); });
    connect(m_send, &QPushButton::clicked, this, &PermissionDialog::sendMessage);
    auto *messageRow = new QHBoxLayout;
    messageRow->addWidget(m_message, 1);
    messageRow->addWidget(m_send);
    grid->addWidget(m_messageLabel, 0, 0, 1, 2);
    grid->addLayout(messageRow, 1, 0, 1, 2);

    m_allowOnce = new QPushButton(answers);
    m_allowOnce->setObjectName(u"allowOnceButton"_s);
    m_allowOnce->setDefault(true);
    connect(m_allowOnce, &QPushButton::clicked, this, [this] { answer(PermissionReply::Once); });
    m_reject = new QPushButton(answers);
    m_reject->setObjectName(u"rejectButton"_s);
    connect(m_reject, &QPushButton::clicked, this, [this] { answer(PermissionReply::Reject); });
    grid->addWidget(m_allowOnce, 2, 0);
    grid->addWidget(m_reject, 3, 0);

    if (!description.alwaysSubject.isEmpty()) {
        m_alwaysSession = new QPushButton(answers);
        m_alwaysSession->setObjectName(u"alwaysSessionButton"_s);
        connect(m_alwaysSession, &QPushButton::clicked, this,
                [this] { answer(PermissionReply::Always, {}, ApprovalScope::Session); });
        m_alwaysProject = new QPushButton(answers);
        m_alwaysProject->setObjectName(u"alwaysProjectButton"_s);
        connect(m_alwaysProject, &QPushButton::clicked, this,
                [this] { answer(PermissionReply::Always, {}, ApprovalScope::Project); });
        grid->addWidget(m_alwaysSession, 2, 1);
        grid->addWidget(m_alwaysProject, 3, 1);
        m_alwaysNote = new QLabel(answers);
        m_alwaysNote->setObjectName(u"alwaysNote"_s);
        m_alwaysNote->setWordWrap(true);
        m_alwaysNote->setTextFormat(Qt::PlainText);
        grid->addWidget(m_alwaysNote, 4, 0, 1, 3);
    }
    grid->setColumnStretch(2, 1);

    for (QPushButton *button : {m_allowOnce, m_alwaysSession, m_alwaysProject}) {
        if (button)
            button->setEnabled(ArmDelay.count() == 0);
    }
    return answers;
}

void PermissionDialog::retranslateUi()
{
    const PermissionDescription description = PermissionDescription::describe(m_request);
    setWindowTitle(tr("Permission needed"));
    m_actionLabel->setText(description.action);
    m_sessionLabel->setText(sessionLine(m_sessionTitle));
    for (qsizetype i = 0; i < m_detailLabels.size() && i < description.details.size(); ++i) {
        m_detailLabels.at(i)->setText(description.details.at(i).label);
        m_detailBoxes.at(i)->setAccessibleName(description.details.at(i).label);
    }
    m_messageLabel->setText(tr("&Tell the agent what to do instead:"));
    m_send->setText(tr("&Send"));
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
}

void PermissionDialog::changeEvent(QEvent *event)
{
    QDialog::changeEvent(event);
    if (event->type() == QEvent::LanguageChange)
        retranslateUi();
}

void PermissionDialog::orderTabs()
{
    QList<QWidget *> chain = m_detailBoxes;
    chain << m_allowOnce;
    if (m_alwaysSession)
        chain << m_alwaysSession << m_alwaysProject;
    chain << m_reject << m_message << m_send;
    for (qsizetype i = 1; i < chain.size(); ++i)
        QWidget::setTabOrder(chain.at(i - 1), chain.at(i));
}

void PermissionDialog::fitScreen()
{
    const QScreen *screen = parentWidget() ? parentWidget()->screen() : QGuiApplication::primaryScreen();
    const QSize available = screen ? screen->availableGeometry().size() * ScreenShare : QSize(1024, 768);
    const int readable = QFontMetrics(QFontDatabase::systemFont(QFontDatabase::FixedFont)).averageCharWidth()
                         * PreferredWidthInCharacters;
    const int width = qMin(qMax(sizeHint().width(), readable), available.width());
    // Lay the details out at that width first: wrapped text decides how
    // tall its box is, and so how tall the dialog wants to be.
    resize(width, height());
    QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
    // QScrollArea keeps the size hint its content had first; the content's
    // own hint is the one laid out at this width.
    const int wanted = sizeHint().height() - m_scroll->sizeHint().height() + m_scroll->widget()->sizeHint().height();
    resize(width, qMin(wanted, available.height()));
}

void PermissionDialog::setSessionTitle(const QString &title)
{
    m_sessionTitle = title;
    m_sessionLabel->setText(sessionLine(title));
}

void PermissionDialog::showEvent(QShowEvent *event)
{
    QDialog::showEvent(event);
    if (!m_fitted) {
        m_fitted = true;
        fitScreen();
    }
    if (m_allowOnce->isEnabled()) {
        m_allowOnce->setFocus(Qt::OtherFocusReason);
        return;
    }
    // Until armed, keys land where they can do nothing.
    if (!m_detailBoxes.isEmpty())
        m_detailBoxes.first()->setFocus(Qt::OtherFocusReason);
    else
        m_reject->setFocus(Qt::OtherFocusReason);
    m_arming.start();
}

void PermissionDialog::arm()
{
    for (QPushButton *button : {m_allowOnce, m_alwaysSession, m_alwaysProject}) {
        if (button)
            button->setEnabled(true);
    }
    // The person may have moved on to the message field meanwhile.
    QWidget *focused = focusWidget();
    if (!focused || m_detailBoxes.contains(focused))
        m_allowOnce->setFocus(Qt::OtherFocusReason);
}

bool PermissionDialog::eventFilter(QObject *watched, QEvent *event)
{
    // Enter in the message field sends it; it must never reach the
    // default button and allow instead.
    if (watched == m_message && event->type() == QEvent::KeyPress) {
        const auto *key = static_cast<QKeyEvent *>(event);
        if (key->key() == Qt::Key_Return || key->key() == Qt::Key_Enter) {
            sendMessage();
            return true;
        }
    }
    return QDialog::eventFilter(watched, event);
}

void PermissionDialog::sendMessage()
{
    const QString message = m_message->text().trimmed();
    if (!message.isEmpty())
        answer(PermissionReply::RejectWithMessage, message);
}

void PermissionDialog::reject()
{
    answer(PermissionReply::Reject);
}

void PermissionDialog::withdraw()
{
    if (m_answered)
        return;
    m_answered = true;
    qCInfo(lcPermissionUi) << "permission" << m_request.id << "withdrawn";
    QDialog::done(QDialog::Rejected);
}

void PermissionDialog::answer(PermissionReply reply, const QString &message, ApprovalScope scope)
{
    if (m_answered)
        return;
    m_answered = true;
    const bool allows = reply == PermissionReply::Once || reply == PermissionReply::Always;
    QDialog::done(allows ? QDialog::Accepted : QDialog::Rejected);
    Q_EMIT answered(m_request.id, reply, message, scope);
}

} // namespace qcode
