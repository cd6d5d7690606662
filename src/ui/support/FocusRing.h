#pragma once

#include <QWidget>

namespace qcode {

// An outline in the highlight colour over a widget while it has the
// keyboard focus, for widgets that draw no focus of their own (a frameless
// scroll area such as the conversation). It lies on top of the widget's
// children, takes no mouse events, and follows the widget's size.
class FocusRing : public QWidget
{
    Q_OBJECT

public:
    // A child of `target`, which it watches.
    explicit FocusRing(QWidget *target);

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;
    void paintEvent(QPaintEvent *event) override;

private:
    QWidget *m_target = nullptr;
};

} // namespace qcode
