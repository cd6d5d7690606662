#pragma once

#include <QPlainTextEdit>

namespace qcode {

class DiffGutter;

// The new file's side of DiffView's side-by-side view: a read-only pane
// with its own line numbers, scrolled together with the old side.
class DiffSidePane : public QPlainTextEdit
{
    Q_OBJECT

public:
    explicit DiffSidePane(QWidget *parent = nullptr);

    DiffGutter *gutter() const { return m_gutter; }
    // After the gutter's numbers grew wider.
    void reserveGutter();

private:
    DiffGutter *m_gutter = nullptr;
};

} // namespace qcode
