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

void RevertBanner::setUndone(int prompts, const QStringList &files)
{
    m_prompts = prompts;
    m_files = files;
    setVisible(prompts > 0);
    retranslateUi();
}

void RevertBanner::retranslateUi()
{
    m_redo->setText(tr("Redo"));
    m_redo->setToolTip(tr("Bring back the next undone prompt and its changes (%1)")
                           .arg(QKeySequence(Qt::CTRL | Qt::ALT | Qt::SHIFT | Qt::Key_Z).toString(QKeySequence::NativeText)));
    // Says what was done, in words: how much was taken back and which
    // files, one whole sentence per case so each language can word it.
    constexpr qsizetype Named = 3;
    QString names = m_files.mid(0, Named).join(tr(", "));
    if (m_files.size() > Named)
        names = tr("%1 and %n more", nullptr, int(m_files.size() - Named)).arg(names);
    const int restored = int(m_files.size());
    QString said;
    if (m_prompts <= 1) {
        said = restored == 0 ? tr("Undid your last prompt; no files needed restoring.")
                             : tr("Undid your last prompt and restored %n file(s): %1.", nullptr, restored).arg(names);
    } else {
        said = restored == 0
                   ? tr("Undid your last %n prompt(s); no files needed restoring.", nullptr, m_prompts)
                   : tr("Undid your last %1 prompts and restored %n file(s): %2.", nullptr, restored)
                         .arg(QString::number(m_prompts), names);
    }
    label()->setText(tr("%1 Sending a new prompt makes this final.").arg(said));
}

} // namespace qcode
