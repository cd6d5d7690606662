#include "OutputText.h"

#include "DiffGutter.h"

namespace qcode {

OutputText::OutputText(QWidget *parent) : QPlainTextEdit(parent)
{
    connect(this, &QPlainTextEdit::blockCountChanged, this, [this] {
        if (m_first > 0)
            renumber();
    });
}

void OutputText::setFirstLineNumber(int first)
{
    first = std::max(first, 0);
    if (first == m_first)
        return;
    m_first = first;
    if (first > 0 && !m_gutter)
        m_gutter = new DiffGutter(this, DiffGutter::Columns::New);
    if (m_gutter)
        m_gutter->setVisible(first > 0);
    renumber();
}

int OutputText::lineNumber(int block) const
{
    return m_gutter && m_first > 0 ? m_gutter->numbers(block).second : 0;
}

void OutputText::renumber()
{
    if (!m_gutter)
        return;
    m_gutter->clear();
    if (m_first > 0) {
        for (int block = 0, count = blockCount(); block < count; ++block)
            m_gutter->append(0, m_first + block);
    }
    // The gutter's width grows with its largest number.
    const QMargins margins(m_first > 0 ? m_gutter->preferredWidth() : 0, 0, 0, 0);
    if (margins != viewportMargins())
        setViewportMargins(margins);
}

} // namespace qcode
