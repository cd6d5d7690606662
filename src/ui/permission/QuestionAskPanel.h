#pragma once

#include <QList>
#include <QStringList>
#include <QWidget>

#include "engine/session/SessionEvents.h"

class QPushButton;

namespace qcode {

class QuestionPage;

// The model's questions answered in the question tool's own card (issue
// 19): each question with its options, one under the other, then "Answer" —
// the default, so Enter on a picked option answers — and "Dismiss", which
// takes a click or its mnemonic, never Enter. answered() or dismissed() is
// emitted once.
//
// Children tests may look up: "answerButton", "dismissButton", and the
// QuestionPage children ("otherEdit" …).
class QuestionAskPanel : public QWidget
{
    Q_OBJECT

public:
    explicit QuestionAskPanel(const QuestionRequest &request, QWidget *parent = nullptr);

    const QuestionRequest &request() const { return m_request; }
    QList<QuestionPage *> pages() const { return m_pages; }
    // One list of answers per question, in the request's order.
    QList<QStringList> answers() const;

Q_SIGNALS:
    void answered(const QString &requestID, const QList<QStringList> &answers);
    void dismissed(const QString &requestID);

protected:
    void changeEvent(QEvent *event) override;
    void keyPressEvent(QKeyEvent *event) override;

private:
    void retranslateUi();
    void refresh();
    void submit();
    void dismiss();

    QuestionRequest m_request;
    bool m_finished = false;
    QList<QuestionPage *> m_pages;
    QPushButton *m_answer = nullptr;
    QPushButton *m_dismiss = nullptr;
};

} // namespace qcode
