#include "QuestionDialog.h"

#include <QAbstractButton>
#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QScrollArea>
#include <QTabBar>
#include <QTabWidget>
#include <QVBoxLayout>

#include "PermissionLogging.h"
#include "QuestionPage.h"

using namespace Qt::StringLiterals;

namespace qcode {
namespace {

QString sessionLine(const QString &title)
{
    return title.isEmpty() ? QuestionDialog::tr("The agent asks, in a session without a title")
                           : QuestionDialog::tr("The agent asks, in session “%1”").arg(title);
}

} // namespace

QuestionDialog::QuestionDialog(const QuestionRequest &request, const QString &sessionTitle, QWidget *parent)
    : QDialog(parent)
    , m_request(request)
    , m_sessionTitle(sessionTitle)
{
    setWindowModality(Qt::WindowModal);
    setObjectName(u"questionDialog"_s);

    m_sessionLabel = new QLabel(this);
    m_sessionLabel->setTextFormat(Qt::PlainText);
    m_sessionLabel->setWordWrap(true);

    m_tabs = new QTabWidget(this);
    m_tabs->setDocumentMode(true);
    for (const QuestionInfo &question : request.questions) {
        auto *page = new QuestionPage(question);
        auto *scroll = new QScrollArea;
        scroll->setWidgetResizable(true);
        scroll->setFrameShape(QFrame::NoFrame);
        scroll->setWidget(page);
        m_pages.append(page);
        m_tabs->addTab(scroll, QString());
        connect(page, &QuestionPage::changed, this, &QuestionDialog::refresh);
    }
    m_tabs->tabBar()->setVisible(m_pages.size() > 1);
    connect(m_tabs, &QTabWidget::currentChanged, this, &QuestionDialog::refresh);

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_sessionLabel);
    layout->addWidget(m_tabs, 1);
    layout->addWidget(createButtons());
    retranslateUi();
}

void QuestionDialog::retranslateUi()
{
    setWindowTitle(m_request.questions.size() == 1 ? tr("A question for you") : tr("Questions for you"));
    m_sessionLabel->setText(sessionLine(m_sessionTitle));
    m_dismiss->setText(tr("&Dismiss"));
    m_dismiss->setToolTip(tr("Leave the questions unanswered; the agent stops and waits for your next message."));
    m_back->setText(tr("&Back"));
    m_next->setText(tr("&Next"));
    m_submit->setText(tr("&Submit"));
    refresh(); // the tabs' names
}

void QuestionDialog::changeEvent(QEvent *event)
{
    QDialog::changeEvent(event);
    if (event->type() == QEvent::LanguageChange)
        retranslateUi();
}

QWidget *QuestionDialog::createButtons()
{
    auto *buttons = new QWidget(this);
    auto *row = new QHBoxLayout(buttons);
    row->setContentsMargins(0, 0, 0, 0);
    m_dismiss = new QPushButton(buttons);
    m_dismiss->setObjectName(u"dismissButton"_s);
    // Enter answers; leaving the questions unanswered takes a deliberate click.
    m_dismiss->setAutoDefault(false);
    connect(m_dismiss, &QPushButton::clicked, this, &QuestionDialog::reject);
    m_back = new QPushButton(buttons);
    m_back->setObjectName(u"backButton"_s);
    connect(m_back, &QPushButton::clicked, this, [this] { m_tabs->setCurrentIndex(m_tabs->currentIndex() - 1); });
    m_next = new QPushButton(buttons);
    m_next->setObjectName(u"nextButton"_s);
    connect(m_next, &QPushButton::clicked, this, [this] { m_tabs->setCurrentIndex(m_tabs->currentIndex() + 1); });
    m_submit = new QPushButton(buttons);
    m_submit->setObjectName(u"submitButton"_s);
    m_submit->setDefault(true);
    connect(m_submit, &QPushButton::clicked, this, &QuestionDialog::submit);
    const bool several = m_pages.size() > 1;
    m_back->setVisible(several);
    m_next->setVisible(several);
    row->addWidget(m_dismiss);
    row->addStretch(1);
    row->addWidget(m_back);
    row->addWidget(m_next);
    row->addWidget(m_submit);
    return buttons;
}

QString QuestionDialog::tabText(int index) const
{
    const QString header = m_request.questions.at(index).header;
    QString text = header.isEmpty() ? tr("Question %1").arg(index + 1) : header;
    text.replace(u'&', "&&"_L1);
    return m_pages.at(index)->isAnswered() ? tr("%1 ✓").arg(text) : text;
}

void QuestionDialog::refresh()
{
    bool complete = true;
    for (int i = 0; i < m_pages.size(); ++i) {
        complete = complete && m_pages.at(i)->isAnswered();
        m_tabs->setTabText(i, tabText(i));
    }
    const int current = m_tabs->currentIndex();
    m_back->setEnabled(current > 0);
    m_next->setEnabled(current >= 0 && current < m_pages.size() - 1);
    m_submit->setEnabled(complete);
    // Enter submits once everything is answered, else turns the page.
    if (!complete && m_next->isVisibleTo(this) && m_next->isEnabled())
        m_next->setDefault(true);
    else
        m_submit->setDefault(true);
}

QList<QStringList> QuestionDialog::answers() const
{
    QList<QStringList> all;
    for (const QuestionPage *page : m_pages)
        all.append(page->answer());
    return all;
}

void QuestionDialog::showEvent(QShowEvent *event)
{
    QDialog::showEvent(event);
    if (!m_pages.isEmpty() && !m_pages.first()->choices().isEmpty())
        m_pages.first()->choices().first()->setFocus(Qt::OtherFocusReason);
}

void QuestionDialog::setSessionTitle(const QString &title)
{
    m_sessionTitle = title;
    m_sessionLabel->setText(sessionLine(title));
}

bool QuestionDialog::finish()
{
    if (m_finished)
        return false;
    m_finished = true;
    return true;
}

void QuestionDialog::submit()
{
    const QList<QStringList> given = answers();
    const bool complete = std::all_of(given.cbegin(), given.cend(), [](const QStringList &a) { return !a.isEmpty(); });
    if (!complete || !finish())
        return;
    QDialog::done(QDialog::Accepted);
    Q_EMIT answered(m_request.id, given);
}

void QuestionDialog::reject()
{
    if (!finish())
        return;
    QDialog::done(QDialog::Rejected);
    Q_EMIT dismissed(m_request.id);
}

void QuestionDialog::withdraw()
{
    if (!finish())
        return;
    qCInfo(lcPermissionUi) << "question" << m_request.id << "withdrawn";
    QDialog::done(QDialog::Rejected);
}

} // namespace qcode
