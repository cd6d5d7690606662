#include "AttachmentBar.h"

#include <QToolButton>

#include <algorithm>

#include "AttachmentChip.h"
#include "FlowLayout.h"

using namespace Qt::StringLiterals;

namespace qcode {

AttachmentBar::AttachmentBar(QWidget *parent) : QWidget(parent)
{
    setObjectName(u"attachmentBar"_s);
    auto *layout = new FlowLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    hide();
}

bool AttachmentBar::contains(const PromptAttachment &attachment) const
{
    return std::any_of(m_chips.cbegin(), m_chips.cend(),
                       [&](const AttachmentChip *chip) { return chip->attachment().isSameAs(attachment); });
}

bool AttachmentBar::add(const PromptAttachment &attachment)
{
    if (contains(attachment))
        return false;
    auto *chip = new AttachmentChip(attachment, this);
    layout()->addWidget(chip);
    m_chips.append(chip);
    connect(chip, &AttachmentChip::removeRequested, this, [this, chip] {
        const qsizetype index = m_chips.indexOf(chip);
        if (index >= 0)
            removeAt(int(index));
    });
    show();
    Q_EMIT changed();
    return true;
}

void AttachmentBar::removeAt(int index)
{
    if (index < 0 || index >= m_chips.size())
        return;
    AttachmentChip *chip = m_chips.takeAt(index);
    const bool hadFocus = chip->isAncestorOf(focusWidget());
    chip->hide();
    chip->deleteLater(); // it may be inside its own signal
    setVisible(!m_chips.isEmpty());
    if (hadFocus) {
        if (m_chips.isEmpty())
            Q_EMIT focusLeft();
        else
            m_chips.at(std::min<qsizetype>(index, m_chips.size() - 1))->removeButton()->setFocus();
    }
    Q_EMIT changed();
}

void AttachmentBar::clear()
{
    if (m_chips.isEmpty())
        return;
    for (AttachmentChip *chip : std::as_const(m_chips)) {
        chip->hide();
        chip->deleteLater();
    }
    m_chips.clear();
    hide();
    Q_EMIT changed();
}

QList<PromptAttachment> AttachmentBar::attachments() const
{
    QList<PromptAttachment> out;
    for (const AttachmentChip *chip : m_chips)
        out.append(chip->attachment());
    return out;
}

} // namespace qcode
