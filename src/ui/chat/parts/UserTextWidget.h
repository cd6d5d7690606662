#pragma once

#include "ui/chat/PartWidget.h"

class QLabel;
class QToolButton;

namespace qcode {

// What the person typed, as they typed it: plain text, selectable. A very
// long paste shows its first lines and a button for the rest, so one
// message cannot make the conversation crawl.
class UserTextWidget : public PartWidget
{
    Q_OBJECT

public:
    static constexpr int CollapsedLines = 40;

    explicit UserTextWidget(QWidget *parent = nullptr);

    void setPart(const Part &part, const Message &message) override;
    QString markdown() const override { return m_text; }
    bool isCollapsed() const;

protected:
    void changeEvent(QEvent *event) override;

private:
    void render();

    QString m_text;
    bool m_expanded = false;
    QLabel *m_label = nullptr;
    QToolButton *m_more = nullptr;
};

} // namespace qcode
