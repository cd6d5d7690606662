#include "SecretLineEdit.h"

#include <QEvent>
#include <QHBoxLayout>
#include <QLineEdit>
#include <QToolButton>

using namespace Qt::StringLiterals;

namespace qcode {

SecretLineEdit::SecretLineEdit(QWidget *parent) : QWidget(parent)
{
    m_edit = new QLineEdit(this);
    m_edit->setEchoMode(QLineEdit::Password);
    // Keys are not words: no completion history, no spell checking.
    m_edit->setInputMethodHints(Qt::ImhHiddenText | Qt::ImhSensitiveData | Qt::ImhNoPredictiveText);
    m_edit->setClearButtonEnabled(true);

    m_toggle = new QToolButton(this);
    m_toggle->setObjectName(u"revealToggle"_s);
    m_toggle->setCheckable(true);
    retranslateUi();

    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_edit, 1);
    layout->addWidget(m_toggle);
    setFocusProxy(m_edit);

    connect(m_toggle, &QToolButton::toggled, this, &SecretLineEdit::setRevealed);
    connect(m_edit, &QLineEdit::textChanged, this, [this](const QString &text) {
        if (text.isEmpty())
            m_toggle->setChecked(false);
        Q_EMIT textChanged(text);
    });
    connect(m_edit, &QLineEdit::returnPressed, this, &SecretLineEdit::returnPressed);
}

QString SecretLineEdit::text() const
{
    return m_edit->text();
}

void SecretLineEdit::setText(const QString &text)
{
    m_edit->setText(text);
}

void SecretLineEdit::clear()
{
    m_edit->clear();
}

void SecretLineEdit::setPlaceholderText(const QString &text)
{
    m_edit->setPlaceholderText(text);
}

bool SecretLineEdit::isRevealed() const
{
    return m_edit->echoMode() == QLineEdit::Normal;
}

void SecretLineEdit::setRevealed(bool revealed)
{
    m_edit->setEchoMode(revealed ? QLineEdit::Normal : QLineEdit::Password);
    retranslateUi();
}

void SecretLineEdit::retranslateUi()
{
    m_toggle->setText(isRevealed() ? tr("Hide") : tr("Show"));
    m_toggle->setToolTip(tr("Show or hide the key"));
}

void SecretLineEdit::changeEvent(QEvent *event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::LanguageChange)
        retranslateUi();
}

} // namespace qcode
