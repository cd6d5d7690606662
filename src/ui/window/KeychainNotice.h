#pragma once

#include <QFrame>

class QLabel;
class QToolButton;

namespace qcode {

// One short line when no system keychain runs: where keys come from
// instead. Said once per start, whatever reloads the project afterwards
// (closing Settings does), and gone for good when closed.
class KeychainNotice : public QFrame
{
    Q_OBJECT

public:
    explicit KeychainNotice(QWidget *parent = nullptr);

    // Shows the notice, unless it was shown before.
    void showOnce();
    QString text() const;
    QToolButton *closeButton() const { return m_close; }

protected:
    void changeEvent(QEvent *event) override;

private:
    void retranslateUi();

    QLabel *m_label = nullptr;
    QToolButton *m_close = nullptr;
    bool m_said = false;
};

} // namespace qcode
