#include "NoticeLabel.h"

#include <QEvent>
#include <QHBoxLayout>
#include <QStyle>

using namespace Qt::StringLiterals;

namespace qcode {

NoticeLabel::NoticeLabel(QWidget *parent) : QWidget(parent)
{
    setObjectName(u"promptNotice"_s);
    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    m_icon = new QLabel(this);
    m_icon->setAlignment(Qt::AlignTop);
    m_text = new QLabel(this);
    m_text->setWordWrap(true);
    m_text->setTextFormat(Qt::PlainText);
    m_text->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(m_icon);
    layout->addWidget(m_text, 1);
    retranslateUi();
    updateIcon();
    m_timer.setSingleShot(true);
    m_timer.setInterval(ShownMs);
    connect(&m_timer, &QTimer::timeout, this, &QWidget::hide);
    hide();
}

void NoticeLabel::showMessages(const QStringList &messages)
{
    if (messages.isEmpty())
        return;
    m_text->setText(messages.join(u'\n'));
    setAccessibleDescription(m_text->text());
    show();
    m_timer.start();
}

QString NoticeLabel::text() const
{
    return isHidden() ? QString() : m_text->text();
}

void NoticeLabel::mousePressEvent(QMouseEvent *event)
{
    hide();
    QWidget::mousePressEvent(event);
}

void NoticeLabel::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::StyleChange || event->type() == QEvent::PaletteChange)
        updateIcon();
    else if (event->type() == QEvent::LanguageChange)
        retranslateUi();
    QWidget::changeEvent(event);
}

void NoticeLabel::retranslateUi()
{
    setToolTip(tr("Click to dismiss"));
}

void NoticeLabel::updateIcon()
{
    const int extent = style()->pixelMetric(QStyle::PM_SmallIconSize);
    m_icon->setPixmap(style()->standardIcon(QStyle::SP_MessageBoxWarning).pixmap(QSize(extent, extent),
                                                                               devicePixelRatioF()));
}

} // namespace qcode
