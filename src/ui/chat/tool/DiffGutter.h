#pragma once

#include <QList>
#include <QWidget>

class QPlainTextEdit;

namespace qcode {

// The line numbers beside a diff pane: the old file's, the new file's or
// both, one entry per block of the pane's document (0: none). It follows
// the pane's viewport on its own; the pane reserves its width as a left
// viewport margin.
class DiffGutter : public QWidget
{
    Q_OBJECT

public:
    enum class Columns { Old, New, Both };

    DiffGutter(QPlainTextEdit *pane, Columns columns);

    void setColumns(Columns columns);
    void clear();
    void append(int oldNumber, int newNumber);
    int preferredWidth() const;
    // (old, new) for a block; (0, 0) past the end.
    std::pair<int, int> numbers(int block) const;

protected:
    void paintEvent(QPaintEvent *event) override;
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void follow();
    int columnWidth() const;

    QPlainTextEdit *m_pane = nullptr;
    // The pane's viewport, compared by address: while the pane is being
    // destroyed its viewport still sends events, and the pane is no longer
    // a QPlainTextEdit to ask (UndefinedBehaviorSanitizer: vptr).
    const QObject *m_viewport = nullptr;
    Columns m_columns = Columns::Both;
    QList<std::pair<int, int>> m_numbers;
    int m_largest = 0;
};

} // namespace qcode
