#pragma once

#include <QList>
#include <QWidget>

#include "PromptAttachment.h"

namespace qcode {

class AttachmentChip;

// The chips above the prompt, wrapping onto more rows as they need; hidden
// while there are none. It keeps the attachments in the order they came
// and never holds the same one twice.
class AttachmentBar : public QWidget
{
    Q_OBJECT

public:
    explicit AttachmentBar(QWidget *parent = nullptr);

    // False (and nothing changes) when it is attached already.
    bool add(const PromptAttachment &attachment);
    void removeAt(int index);
    void clear();

    QList<PromptAttachment> attachments() const;
    QList<AttachmentChip *> chips() const { return m_chips; }
    bool contains(const PromptAttachment &attachment) const;

Q_SIGNALS:
    void changed();
    // A chip removed from the keyboard leaves focus on the next chip; after
    // the last one the focus has nowhere to go here.
    void focusLeft();

private:
    QList<AttachmentChip *> m_chips;
};

} // namespace qcode
