#pragma once

#include <QPlainTextEdit>

namespace qcode {

// A read-only monospace box that shows text exactly as it is (a command, a
// path, an address) and is as tall as its wrapped text, up to a number of
// lines; beyond that it scrolls. Long words wrap anywhere, so a path
// without spaces never widens the dialog.
class DetailBox : public QPlainTextEdit
{
    Q_OBJECT

public:
    explicit DetailBox(int maximumLines, QWidget *parent = nullptr);

protected:
    void resizeEvent(QResizeEvent *event) override;

private:
    int wrappedLines() const;
    void fitHeight();

    int m_maximumLines;
};

} // namespace qcode
