#include "RevertBanner.h"

#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>

using namespace Qt::StringLiterals;

namespace qcode {

RevertBanner::RevertBanner(QWidget *parent) : QFrame(parent)
{
    setObjectName(u"revertBanner"_s);
    setFrameShape(QFrame::StyledPanel);
    setAutoFillBackground(true);
    setBackgroundRole(QPalette::AlternateBase);
    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(10, 6, 10, 6);
    m_label = new QLabel(this);
    m_label->setWordWrap(true);
    layout->addWidget(m_label, 1);
    m_redo = new QPushButton(this);
    m_redo->setObjectName(u"redoButton"_s);
    connect(m_redo, &QPushButton::clicked, this, &RevertBanner::redoRequested);
    layout->addWidget(m_redo);
    retranslateUi();
    hide();
}

void RevertBanner::setHiddenCount(int hidden)
{
    m_hidden = hidden;
    setVisible(hidden > 0);
    retranslateUi();
}

void RevertBanner::retranslateUi()
{
    m_redo->setText(tr("Redo"));
    m_redo->setToolTip(tr("Bring back the next undone prompt and its changes (%1)")
                           .arg(QKeySequence(Qt::CTRL | Qt::ALT | Qt::SHIFT | Qt::Key_Z).toString(QKeySequence::NativeText)));
    m_label->setText(tr("%n message(s) undone, and their file changes put back. They are removed for good when you "
                        "send the next prompt.",
                        nullptr, m_hidden));
}

void RevertBanner::changeEvent(QEvent *event)
{
    QFrame::changeEvent(event);
    if (event->type() == QEvent::LanguageChange)
        retranslateUi();
}

QString RevertBanner::text() const
{
    return m_label->text();
}

} // namespace qcode
