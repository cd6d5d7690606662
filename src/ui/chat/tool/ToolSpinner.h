#pragma once

#include <QTimer>
#include <QWidget>

namespace qcode {

// A small turning arc for a tool that is running. Its timer runs only
// while it spins and is visible, so finished or scrolled-away cards cost
// nothing; each frame is also the card's cue to refresh its elapsed time.
class ToolSpinner : public QWidget
{
    Q_OBJECT

public:
    static constexpr int FrameMs = 80;

    explicit ToolSpinner(QWidget *parent = nullptr);

    void setSpinning(bool spinning);
    bool isSpinning() const { return m_spinning; }
    bool isAnimating() const { return m_timer.isActive(); }

    QSize sizeHint() const override;

Q_SIGNALS:
    void frameAdvanced();

protected:
    void paintEvent(QPaintEvent *event) override;
    void showEvent(QShowEvent *event) override;
    void hideEvent(QHideEvent *event) override;

private:
    void updateTimer();

    QTimer m_timer;
    bool m_spinning = false;
    int m_angle = 0;
};

} // namespace qcode
