#include "QueuedPromptRow.h"

#include <QEvent>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QStyle>
#include <QToolButton>

#include "PromptEditor.h"

using namespace Qt::StringLiterals;

namespace qcode {

QueuedPromptRow::QueuedPromptRow(const QueuedPrompt &prompt, QWidget *parent) : QWidget(parent), m_prompt(prompt)
{
    setObjectName(u"queuedPrompt"_s);
    setFocusPolicy(Qt::TabFocus);
    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);

    m_badge = new QLabel(this);
    m_badge->setEnabled(false); // dimmed in every palette
    layout->addWidget(m_badge);

    m_label = new QLabel(this);
    m_label->setTextFormat(Qt::PlainText);
    m_label->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    layout->addWidget(m_label, 1);

    m_editButton = new QToolButton(this);
    m_editButton->setObjectName(u"editQueued"_s);
    m_editButton->setAutoRaise(true);
    layout->addWidget(m_editButton);

    m_sendNowButton = new QToolButton(this);
    m_sendNowButton->setObjectName(u"sendQueuedNow"_s);
    m_sendNowButton->setAutoRaise(true);
    layout->addWidget(m_sendNowButton);

    m_removeButton = new QToolButton(this);
    m_removeButton->setObjectName(u"removeQueued"_s);
    m_removeButton->setText(u"×"_s); // i18n: a symbol, the same in every language
    m_removeButton->setAutoRaise(true);
    layout->addWidget(m_removeButton);

    connect(m_editButton, &QToolButton::clicked, this, &QueuedPromptRow::startEditing);
    connect(m_removeButton, &QToolButton::clicked, this, [this] { Q_EMIT removed(m_prompt.id); });
    connect(m_sendNowButton, &QToolButton::clicked, this, [this] { Q_EMIT sendNowRequested(m_prompt.id); });
    retranslateUi();
    updateLabel();
}

void QueuedPromptRow::retranslateUi()
{
    m_badge->setText(tr("Queued"));
    m_editButton->setText(tr("Edit"));
    m_editButton->setToolTip(tr("Edit this queued prompt (F2); Enter saves, Escape cancels"));
    m_sendNowButton->setText(tr("Send now"));
    m_sendNowButton->setToolTip(tr("Send this prompt now; it waits behind a running answer"));
    m_removeButton->setToolTip(tr("Remove from the queue (Delete)"));
    m_removeButton->setAccessibleName(tr("Remove from the queue"));
}

void QueuedPromptRow::changeEvent(QEvent *event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::LanguageChange)
        retranslateUi();
}


void QueuedPromptRow::setPrompt(const QueuedPrompt &prompt)
{
    if (isEditing())
        return;
    m_prompt = prompt;
    updateLabel();
}

void QueuedPromptRow::updateLabel()
{
    // One line: a long or multi-line prompt shows its start.
    QString oneLine = m_prompt.text;
    oneLine.replace(u'\n', u' ');
    m_label->setText(m_label->fontMetrics().elidedText(oneLine.simplified(), Qt::ElideRight,
                                                       std::max(1, m_label->width())));
    m_label->setToolTip(m_prompt.text);
}

void QueuedPromptRow::resizeEvent(QResizeEvent *event)
{
    QWidget::resizeEvent(event);
    updateLabel();
}

void QueuedPromptRow::startEditing()
{
    if (isEditing())
        return;
    m_editor = new PromptEditor(this);
    m_editor->setObjectName(u"queuedEditor"_s);
    m_editor->setPlainText(m_prompt.text);
    m_editor->moveCursor(QTextCursor::End);
    m_editor->setMaximumHeightShare(0.25);
    m_editor->setClaimsEscape(true);
    m_editor->setKeyInterceptor([this](QKeyEvent *event) {
        if (event->key() != Qt::Key_Escape)
            return false;
        finishEditing(false);
        return true;
    });
    connect(m_editor, &PromptEditor::submitRequested, this, [this] { finishEditing(true); });
    auto *layout = static_cast<QHBoxLayout *>(this->layout());
    delete layout->replaceWidget(m_label, m_editor); // the label's old layout item is ours to free
    m_label->hide();
    m_editButton->hide();
    m_editor->setFocus(Qt::OtherFocusReason);
}

void QueuedPromptRow::finishEditing(bool save)
{
    if (!m_editor)
        return;
    const QString text = m_editor->toPlainText();
    auto *layout = static_cast<QHBoxLayout *>(this->layout());
    delete layout->replaceWidget(m_editor, m_label);
    m_editor->hide();
    m_editor->deleteLater(); // it may be inside its own key handler
    m_editor = nullptr;
    m_label->show();
    m_editButton->show();
    if (save && text.trimmed() != m_prompt.text.trimmed() && !text.trimmed().isEmpty()) {
        m_prompt.text = text.trimmed();
        updateLabel();
        Q_EMIT edited(m_prompt.id, m_prompt.text);
    }
    setFocus(Qt::OtherFocusReason);
}

void QueuedPromptRow::keyPressEvent(QKeyEvent *event)
{
    if (event->key() == Qt::Key_F2) {
        startEditing();
        return;
    }
    if (event->key() == Qt::Key_Delete) {
        Q_EMIT removed(m_prompt.id);
        return;
    }
    QWidget::keyPressEvent(event);
}

} // namespace qcode
