#pragma once

#include "Banner.h"

class QPushButton;

namespace qcode {

// Shown while the open session is taken back to an earlier point: what is
// hidden, that it goes for good with the next prompt, and Redo.
class RevertBanner : public Banner
{
    Q_OBJECT

public:
    explicit RevertBanner(QWidget *parent = nullptr);

    // `hidden`: how many messages the revert hides; 0 hides the banner.
    // `hidden` messages were undone and `files` put back as they were.
    void setUndone(int hidden, const QStringList &files);

Q_SIGNALS:
    void redoRequested();

private:
    void retranslateUi() override;

    int m_hidden = 0;
    QStringList m_files;
    QPushButton *m_redo = nullptr;
};

} // namespace qcode
