#pragma once

#include <QFrame>
#include <QPalette>

class QHBoxLayout;
class QLabel;
class QPushButton;

namespace qcode {

// A one-line strip above the prompt box: a sentence and its buttons, in
// one look for every banner (retry, revert, no provider, broken config).
// A subclass fills in its words in retranslateUi(), which it calls at the
// end of its constructor and which runs again when the language changes.
class Banner : public QFrame
{
    Q_OBJECT

public:
    QString text() const;

protected:
    // `background`: ToolTipBase for what happens now (a retry, no
    // provider), AlternateBase for a state the person left (an undo, a
    // broken file).
    Banner(const QString &objectName, QPalette::ColorRole background, QWidget *parent);

    QLabel *label() const { return m_label; }
    QHBoxLayout *row() const { return m_row; }
    QPushButton *addButton(const QString &objectName);

    virtual void retranslateUi() = 0;
    void changeEvent(QEvent *event) override;

private:
    QLabel *m_label = nullptr;
    QHBoxLayout *m_row = nullptr;
};

} // namespace qcode
