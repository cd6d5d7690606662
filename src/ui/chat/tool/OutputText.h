#pragma once

#include <QPlainTextEdit>

namespace qcode {

class DiffGutter;

// The text pane of OutputView: read-only, and for a file's lines a gutter
// with their numbers, counting from the first line shown (a read from
// line 120 starts at 120). The numbers are not part of the text, so
// selecting and copying take the file's lines alone.
class OutputText : public QPlainTextEdit
{
    Q_OBJECT

public:
    explicit OutputText(QWidget *parent = nullptr);

    // 0: no gutter.
    void setFirstLineNumber(int first);
    int firstLineNumber() const { return m_first; }
    // The number shown beside a block, 0 for none.
    int lineNumber(int block) const;

private:
    void renumber();

    int m_first = 0;
    DiffGutter *m_gutter = nullptr;
};

} // namespace qcode
