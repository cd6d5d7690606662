#include "KeychainNotice.h"

#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QStyle>
#include <QToolButton>

using namespace Qt::StringLiterals;

namespace qcode {

KeychainNotice::KeychainNotice(QWidget *parent) : QFrame(parent)
{
    setObjectName(u"keychainNotice"_s);
    setFrameShape(QFrame::StyledPanel);
    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(10, 4, 4, 4);
    m_label = new QLabel(this);
    m_label->setWordWrap(true);
    layout->addWidget(m_label, 1);
    m_close = new QToolButton(this);
    m_close->setObjectName(u"closeKeychainNotice"_s);
    m_close->setAutoRaise(true);
    m_close->setIcon(style()->standardIcon(QStyle::SP_TitleBarCloseButton));
    connect(m_close, &QToolButton::clicked, this, &QWidget::hide);
    layout->addWidget(m_close, 0, Qt::AlignTop);
    retranslateUi();
    hide();
}

void KeychainNotice::showOnce()
{
    if (m_said)
        return;
    m_said = true;
    show();
}

QString KeychainNotice::text() const
{
    return m_label->text();
}

void KeychainNotice::retranslateUi()
{
    m_label->setText(tr("Keys are read from environment variables and the config because no system keychain is "
                        "running."));
    m_close->setToolTip(tr("Close this notice"));
}

void KeychainNotice::changeEvent(QEvent *event)
{
    QFrame::changeEvent(event);
    if (event->type() == QEvent::LanguageChange)
        retranslateUi();
}

} // namespace qcode
