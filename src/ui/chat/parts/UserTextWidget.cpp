#include "UserTextWidget.h"

#include <QEvent>
#include <QLabel>
#include <QToolButton>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;

namespace qcode {

UserTextWidget::UserTextWidget(QWidget *parent) : PartWidget(parent)
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    m_label = new QLabel(this);
    m_label->setObjectName(u"userText"_s);
    m_label->setTextFormat(Qt::PlainText);
    m_label->setWordWrap(true);
    m_label->setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::TextSelectableByKeyboard);
    m_label->setContextMenuPolicy(Qt::NoContextMenu); // the message's own menu has Copy
    layout->addWidget(m_label);
    m_more = new QToolButton(this);
    m_more->setObjectName(u"showAll"_s);
    m_more->setAutoRaise(true);
    m_more->hide();
    connect(m_more, &QToolButton::clicked, this, [this] {
        m_expanded = !m_expanded;
        render();
    });
    layout->addWidget(m_more, 0, Qt::AlignLeft);
}

void UserTextWidget::setPart(const Part &part, const Message &)
{
    const TextPart *text = part.as<TextPart>();
    const QString next = text ? text->text : QString();
    if (next == m_text && !m_label->text().isEmpty())
        return;
    m_text = next;
    render();
}

void UserTextWidget::changeEvent(QEvent *event)
{
    PartWidget::changeEvent(event);
    // Only the button has words of qcode's; the text is the person's.
    if (event->type() == QEvent::LanguageChange && !m_more->isHidden())
        render();
}

bool UserTextWidget::isCollapsed() const
{
    return m_more->isVisibleTo(this) && !m_expanded;
}

void UserTextWidget::render()
{
    const qsizetype lines = m_text.count(u'\n') + 1;
    if (lines <= CollapsedLines + 10) {
        m_label->setText(m_text);
        m_more->hide();
        return;
    }
    if (m_expanded) {
        m_label->setText(m_text);
        m_more->setText(tr("Show less"));
    } else {
        qsizetype cut = -1;
        for (int i = 0; i < CollapsedLines; ++i)
            cut = m_text.indexOf(u'\n', cut + 1);
        m_label->setText(m_text.left(cut) + u"\n…"_s); // i18n: an ellipsis, the same in every language
        m_more->setText(tr("+%n line(s)", nullptr, int(lines - CollapsedLines)));
    }
    m_more->show();
}

} // namespace qcode
