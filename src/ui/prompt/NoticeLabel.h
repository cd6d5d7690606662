#pragma once

#include <QLabel>
#include <QStringList>
#include <QTimer>

namespace qcode {

// A short message beside the prompt (why a drop was refused) that goes
// away by itself after a while, or when clicked.
class NoticeLabel : public QWidget
{
    Q_OBJECT

public:
    static constexpr int ShownMs = 8000;

    explicit NoticeLabel(QWidget *parent = nullptr);

    // Shows the sentences, one per line, and restarts the timer.
    void showMessages(const QStringList &messages);
    QString text() const;

protected:
    void mousePressEvent(QMouseEvent *event) override;
    void changeEvent(QEvent *event) override;

private:
    void retranslateUi();
    void updateIcon();

    QLabel *m_icon = nullptr;
    QLabel *m_text = nullptr;
    QTimer m_timer;
};

} // namespace qcode
