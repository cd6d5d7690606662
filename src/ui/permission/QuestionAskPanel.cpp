#include "QuestionAskPanel.h"

#include <QEvent>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QPushButton>
#include <QVBoxLayout>

#include <algorithm>

#include "QuestionPage.h"

using namespace Qt::StringLiterals;

namespace qcode {

QuestionAskPanel::QuestionAskPanel(const QuestionRequest &request, QWidget *parent)
    : QWidget(parent)
    , m_request(request)
{
    setObjectName(u"questionAsk"_s);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 0, 10, 8);
    layout->setSpacing(0);
    for (const QuestionInfo &question : request.questions) {
        auto *page = new QuestionPage(question, this);
        m_pages.append(page);
        layout->addWidget(page);
        connect(page, &QuestionPage::changed, this, &QuestionAskPanel::refresh);
    }

    auto *buttons = new QHBoxLayout;
    buttons->setContentsMargins(6, 0, 0, 0);
    m_answer = new QPushButton(this);
    m_answer->setObjectName(u"answerButton"_s);
    m_answer->setDefault(true); // drawn as the default; Enter reaches it through keyPressEvent
    connect(m_answer, &QPushButton::clicked, this, &QuestionAskPanel::submit);
    m_dismiss = new QPushButton(this);
    m_dismiss->setObjectName(u"dismissButton"_s);
    m_dismiss->setAutoDefault(false);
    connect(m_dismiss, &QPushButton::clicked, this, &QuestionAskPanel::dismiss);
    buttons->addWidget(m_answer);
    buttons->addWidget(m_dismiss);
    buttons->addStretch(1);
    layout->addLayout(buttons);
    retranslateUi();
    refresh();
}

void QuestionAskPanel::retranslateUi()
{
    m_answer->setText(m_pages.size() > 1 ? tr("&Answer all") : tr("&Answer"));
    m_dismiss->setText(tr("&Dismiss"));
    m_dismiss->setToolTip(tr("Leave the questions unanswered; the agent stops and waits for your next message."));
}

void QuestionAskPanel::changeEvent(QEvent *event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::LanguageChange)
        retranslateUi();
}

// Enter on an option or in "your own answer" (both pass it on) answers, as
// a dialog's default button would; it never dismisses.
void QuestionAskPanel::keyPressEvent(QKeyEvent *event)
{
    if ((event->key() == Qt::Key_Return || event->key() == Qt::Key_Enter) && !m_dismiss->hasFocus()) {
        submit();
        event->accept();
        return;
    }
    QWidget::keyPressEvent(event);
}

void QuestionAskPanel::refresh()
{
    const bool complete =
        std::all_of(m_pages.cbegin(), m_pages.cend(), [](const QuestionPage *page) { return page->isAnswered(); });
    m_answer->setEnabled(complete);
}

QList<QStringList> QuestionAskPanel::answers() const
{
    QList<QStringList> all;
    for (const QuestionPage *page : m_pages)
        all.append(page->answer());
    return all;
}

void QuestionAskPanel::submit()
{
    const QList<QStringList> given = answers();
    const bool complete = std::all_of(given.cbegin(), given.cend(), [](const QStringList &a) { return !a.isEmpty(); });
    if (!complete || m_finished)
        return;
    m_finished = true;
    setEnabled(false); // until the card takes the panel away
    Q_EMIT answered(m_request.id, given);
}

void QuestionAskPanel::dismiss()
{
    if (m_finished)
        return;
    m_finished = true;
    setEnabled(false);
    Q_EMIT dismissed(m_request.id);
}

} // namespace qcode
