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

void RevertBanner::setUndone(int hidden, const QStringList &files)
{
    m_hidden = hidden;
    m_files = files;
    setVisible(hidden > 0);
    retranslateUi();
}

void RevertBanner::retranslateUi()
{
    m_redo->setText(tr("Redo"));
    m_redo->setToolTip(tr("Bring back the next undone prompt and its changes (%1)")
                           .arg(QKeySequence(Qt::CTRL | Qt::ALT | Qt::SHIFT | Qt::Key_Z).toString(QKeySequence::NativeText)));
    // Says what was done, in words: how much was taken back and which files.
    QString files;
    if (m_files.isEmpty()) {
        files = tr("No files needed restoring.");
    } else {
        constexpr qsizetype Named = 3;
        QString names = m_files.mid(0, Named).join(tr(", "));
        if (m_files.size() > Named)
            names = tr("%1 and %n more", nullptr, int(m_files.size() - Named)).arg(names);
        files = tr("Restored %n file(s): %1.", nullptr, int(m_files.size())).arg(names);
    }
    label()->setText(tr("Undid %n message(s). %1 They are removed for good when you send the next prompt.", nullptr,
                        m_hidden)
                         .arg(files));
}

} // namespace qcode
