#pragma once

#include <QDialog>
#include <QList>
#include <QStringList>

#include "engine/session/SessionEvents.h"

class QLabel;
class QPushButton;
class QTabWidget;

namespace qcode {

class QuestionPage;

// The model's questions to the person (reference §8.11), a page each when
// there are several: the options to pick, or words of one's own. Submit
// is enabled once every question has an answer; Dismiss, Escape and
// closing the window dismiss the request (the question tool fails and the
// loop stops). Window-modal and opened with open(). answered() or
// dismissed() is emitted once, unless withdraw() closed the dialog first.
class QuestionDialog : public QDialog
{
    Q_OBJECT

public:
    QuestionDialog(const QuestionRequest &request, const QString &sessionTitle, QWidget *parent);

    const QuestionRequest &request() const { return m_request; }
    void setSessionTitle(const QString &title);
    // One list of answers per question, in the request's order.
    QList<QStringList> answers() const;
    // Closes without answering: the request was answered elsewhere or cancelled.
    void withdraw();

    void reject() override;

Q_SIGNALS:
    void answered(const QString &requestID, const QList<QStringList> &answers);
    void dismissed(const QString &requestID);

protected:
    void showEvent(QShowEvent *event) override;
    void changeEvent(QEvent *event) override;

private:
    void retranslateUi();
    QWidget *createButtons();
    void refresh();
    void submit();
    bool finish();
    QString tabText(int index) const;

    QuestionRequest m_request;
    bool m_finished = false;
    QString m_sessionTitle;
    QLabel *m_sessionLabel = nullptr;
    QTabWidget *m_tabs = nullptr;
    QList<QuestionPage *> m_pages;
    QPushButton *m_back = nullptr;
    QPushButton *m_next = nullptr;
    QPushButton *m_submit = nullptr;
    QPushButton *m_dismiss = nullptr;
};

} // namespace qcode
