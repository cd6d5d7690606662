#pragma once

#include <QFrame>

class QLabel;
class QPushButton;

namespace qcode {

// Shown while the open session is taken back to an earlier point: what is
// hidden, that it goes for good with the next prompt, and Redo.
class RevertBanner : public QFrame
{
    Q_OBJECT

public:
    explicit RevertBanner(QWidget *parent = nullptr);

    // `hidden`: how many messages the revert hides; 0 hides the banner.
    void setHiddenCount(int hidden);
    QString text() const;

Q_SIGNALS:
    void redoRequested();

protected:
    void changeEvent(QEvent *event) override;

private:
    void retranslateUi();

    int m_hidden = 0;
    QLabel *m_label = nullptr;
    QPushButton *m_redo = nullptr;
};

} // namespace qcode
