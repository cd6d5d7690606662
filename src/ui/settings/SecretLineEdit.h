#pragma once

#include <QWidget>

class QLineEdit;
class QToolButton;

namespace qcode {

// An API key field: masked, with a Show toggle for checking what was
// pasted. Masking returns when the field is cleared.
class SecretLineEdit : public QWidget
{
    Q_OBJECT

public:
    explicit SecretLineEdit(QWidget *parent = nullptr);

    QString text() const;
    void setText(const QString &text);
    void clear();
    void setPlaceholderText(const QString &text);
    bool isRevealed() const;
    QLineEdit *lineEdit() const { return m_edit; }

Q_SIGNALS:
    void textChanged(const QString &text);
    void returnPressed();

protected:
    void changeEvent(QEvent *event) override;

private:
    void retranslateUi();
    void setRevealed(bool revealed);

    QLineEdit *m_edit = nullptr;
    QToolButton *m_toggle = nullptr;
};

} // namespace qcode
