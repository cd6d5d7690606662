#pragma once

#include <QWidget>

namespace qcode {

// How full the model's context is: a thin drawn bar of the tokens the last
// step used against the model's context window, with the session's cost
// beside it. Turns amber past 70% and red past 90%, where compaction nears.
class ContextMeter : public QWidget
{
    Q_OBJECT

public:
    explicit ContextMeter(QWidget *parent = nullptr);

    // `limit` 0: the model's context is unknown (only the count shows).
    void setUsage(qint64 used, qint64 limit, double cost);
    QString text() const;
    double fraction() const;

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    void paintEvent(QPaintEvent *event) override;
    void changeEvent(QEvent *event) override;

private:
    qint64 m_used = 0;
    qint64 m_limit = 0;
    double m_cost = 0;
};

} // namespace qcode
