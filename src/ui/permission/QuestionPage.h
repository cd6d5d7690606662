#pragma once

#include <QList>
#include <QStringList>
#include <QWidget>

#include "engine/session/SessionEvents.h"

class QAbstractButton;
class QButtonGroup;
class QLabel;
class QLineEdit;

namespace qcode {

// One question of a QuestionRequest: its header and text, its options as
// radio buttons (check boxes when several may be picked), each with its
// description, and "Other…" with words of the person's own.
class QuestionPage : public QWidget
{
    Q_OBJECT

public:
    explicit QuestionPage(const QuestionInfo &question, QWidget *parent = nullptr);

    // The picked labels in the options' order, then the person's own
    // words; empty while unanswered.
    QStringList answer() const;
    bool isAnswered() const { return !answer().isEmpty(); }
    // The option buttons in order, then "Other…".
    QList<QAbstractButton *> choices() const;
    QLineEdit *otherEdit() const { return m_otherEdit; }

Q_SIGNALS:
    void changed();

protected:
    void changeEvent(QEvent *event) override;

private:
    void retranslateUi();
    QAbstractButton *addChoice(const QString &text, const QString &description);

    QuestionInfo m_question;
    QButtonGroup *m_group = nullptr;
    QLabel *m_pickAny = nullptr; // only when several may be picked
    QList<QAbstractButton *> m_options;
    QAbstractButton *m_other = nullptr;
    QLineEdit *m_otherEdit = nullptr;
};

} // namespace qcode
