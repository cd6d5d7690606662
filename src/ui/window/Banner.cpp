#include "Banner.h"

#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>

namespace qcode {

Banner::Banner(const QString &objectName, QPalette::ColorRole background, QWidget *parent) : QFrame(parent)
{
    setObjectName(objectName);
    setFrameShape(QFrame::StyledPanel);
    setAutoFillBackground(true);
    setBackgroundRole(background);
    m_row = new QHBoxLayout(this);
    m_row->setContentsMargins(10, 6, 10, 6);
    m_label = new QLabel(this);
    m_label->setWordWrap(true);
    if (background == QPalette::ToolTipBase)
        m_label->setForegroundRole(QPalette::ToolTipText);
    m_row->addWidget(m_label, 1);
}

QString Banner::text() const
{
    return m_label->text();
}

QPushButton *Banner::addButton(const QString &objectName)
{
    auto *button = new QPushButton(this);
    button->setObjectName(objectName);
    m_row->addWidget(button);
    return button;
}

void Banner::changeEvent(QEvent *event)
{
    QFrame::changeEvent(event);
    if (event->type() == QEvent::LanguageChange)
        retranslateUi();
}

} // namespace qcode
