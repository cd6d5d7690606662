#pragma once

#include <QFrame>
#include <QFutureWatcher>
#include <QImage>

#include "PromptAttachment.h"

class QLabel;
class QToolButton;

namespace qcode {

// One attachment above the prompt: its icon (a thumbnail for an image,
// made off the GUI thread), its name and a remove button. The remove
// button is reachable with the keyboard; Delete or Backspace on it removes
// the chip too.
class AttachmentChip : public QFrame
{
    Q_OBJECT

public:
    explicit AttachmentChip(const PromptAttachment &attachment, QWidget *parent = nullptr);
    ~AttachmentChip() override;

    const PromptAttachment &attachment() const { return m_attachment; }
    QToolButton *removeButton() const { return m_remove; }
    // Whether the image's thumbnail has been drawn (tests wait on it).
    bool hasThumbnail() const { return m_hasThumbnail; }

Q_SIGNALS:
    void removeRequested();

protected:
    void keyPressEvent(QKeyEvent *event) override;
    void changeEvent(QEvent *event) override;

private:
    void retranslateUi();
    int iconExtent() const;
    void startThumbnail();

    PromptAttachment m_attachment;
    QLabel *m_icon = nullptr;
    QToolButton *m_remove = nullptr;
    QFutureWatcher<QImage> m_thumbnail;
    bool m_hasThumbnail = false;
};

} // namespace qcode
