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

    // `prompts`: how many of the person's prompts the revert takes back
    // (0: none, the banner hides); `files` were put back as they were.
    void setUndone(int prompts, const QStringList &files);

Q_SIGNALS:
    void redoRequested();

private:
    void retranslateUi() override;

    int m_prompts = 0;
    QStringList m_files;
    QPushButton *m_redo = nullptr;
};

} // namespace qcode
