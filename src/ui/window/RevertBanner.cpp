#include "RevertBanner.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>

using namespace Qt::StringLiterals;

namespace qcode {

RevertBanner::RevertBanner(QWidget *parent) : Banner(u"revertBanner"_s, QPalette::AlternateBase, parent)
{
    m_redo = new QPushButton(this);
    m_redo->setObjectName(u"redoButton"_s);
    connect(m_redo, &QPushButton::clicked, this, &RevertBanner::redoRequested);
    row()->addWidget(m_redo);
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
    label()->setText(tr("%n message(s) undone, and their file changes put back. They are removed for good when you "
                        "send the next prompt.",
                        nullptr, m_hidden));
}

} // namespace qcode
