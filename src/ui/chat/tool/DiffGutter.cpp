#include "DiffGutter.h"

#include <QEvent>
#include <QPainter>
#include <QPlainTextEdit>
#include <QTextBlock>

#include "ToolColors.h"

namespace qcode {

DiffGutter::DiffGutter(QPlainTextEdit *pane, Columns columns)
    : QWidget(pane)
    , m_pane(pane)
    , m_viewport(pane->viewport())
    , m_columns(columns)
{
    setObjectName(QStringLiteral("diffGutter"));
    pane->viewport()->installEventFilter(this);
    connect(pane, &QPlainTextEdit::updateRequest, this, [this] { update(); });
}

void DiffGutter::setColumns(Columns columns)
{
    m_columns = columns;
    update();
}

void DiffGutter::clear()
{
    m_numbers.clear();
    m_largest = 0;
    update();
}

void DiffGutter::append(int oldNumber, int newNumber)
{
    m_numbers.append({oldNumber, newNumber});
    m_largest = std::max({m_largest, oldNumber, newNumber});
}

std::pair<int, int> DiffGutter::numbers(int block) const
{
    return block >= 0 && block < m_numbers.size() ? m_numbers.at(block) : std::pair(0, 0);
}

int DiffGutter::columnWidth() const
{
    const int digits = std::max(3, int(QString::number(m_largest).size()));
    return m_pane->fontMetrics().horizontalAdvance(QLatin1Char('9')) * digits;
}

int DiffGutter::preferredWidth() const
{
    const int padding = m_pane->fontMetrics().horizontalAdvance(QLatin1Char(' '));
    const int columns = m_columns == Columns::Both ? 2 : 1;
    return columns * (columnWidth() + padding) + padding;
}

void DiffGutter::paintEvent(QPaintEvent *event)
{
    QPainter painter(this);
    const QPalette &palette = m_pane->palette();
    painter.fillRect(event->rect(), ToolColors::fillerBackground(palette));
    painter.setPen(ToolColors::muted(palette));
    painter.setFont(m_pane->font());
    const int padding = m_pane->fontMetrics().horizontalAdvance(QLatin1Char(' '));
    const int column = columnWidth();
    // The pane's public geometry: the block at its top, then each block's
    // cursor rectangle, in viewport coordinates (the gutter's too).
    QTextBlock block = m_pane->cursorForPosition(QPoint(0, 0)).block();
    while (block.isValid()) {
        const QRect line = m_pane->cursorRect(QTextCursor(block));
        if (line.top() > height())
            break;
        const auto [oldNumber, newNumber] = numbers(block.blockNumber());
        const auto draw = [&](int index, int number) {
            if (number > 0)
                painter.drawText(QRect(padding + index * (column + padding), line.top(), column, line.height()),
                                 Qt::AlignRight | Qt::AlignVCenter, QString::number(number));
        };
        if (m_columns == Columns::Old || m_columns == Columns::Both)
            draw(0, oldNumber);
        if (m_columns == Columns::New)
            draw(0, newNumber);
        if (m_columns == Columns::Both)
            draw(1, newNumber);
        block = block.next();
    }
}

bool DiffGutter::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == m_viewport && (event->type() == QEvent::Resize || event->type() == QEvent::Move))
        follow();
    return QWidget::eventFilter(watched, event);
}

void DiffGutter::follow()
{
    const QRect viewport = m_pane->viewport()->geometry();
    setGeometry(m_pane->contentsRect().left(), viewport.top(), preferredWidth(), viewport.height());
}

} // namespace qcode
