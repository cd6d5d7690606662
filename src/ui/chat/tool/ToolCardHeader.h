#pragma once

#include <QIcon>
#include <QWidget>

#include "ToolStatus.h"

class QLabel;
class QToolButton;

namespace qcode {

class ToolSpinner;
class ToolTitleLabel;

// A tool card's header row: chevron, icon, title, subtitle, then the
// status (with a spinner while running) and, for a task, "Open". The row
// is one focusable control: a click, Space or Enter asks to expand or
// collapse the card; Right and Left ask for one or the other.
class ToolCardHeader : public QWidget
{
    Q_OBJECT

public:
    explicit ToolCardHeader(QWidget *parent = nullptr);

    void setIconName(const QString &name);
    void setTitle(const QString &title);
    void setSubtitle(const QString &subtitle);
    void setStatus(const ToolStatus &status);
    void setExpanded(bool expanded);
    // Whether there is anything to expand: without, no chevron.
    void setExpandable(bool expandable);
    void setOpenVisible(bool visible);
    ToolSpinner *spinner() const { return m_spinner; }

Q_SIGNALS:
    void toggleRequested();
    void expandRequested(bool expanded);
    void openRequested();

protected:
    void paintEvent(QPaintEvent *event) override;
    void mousePressEvent(QMouseEvent *event) override;
    void mouseReleaseEvent(QMouseEvent *event) override;
    void keyPressEvent(QKeyEvent *event) override;
    void enterEvent(QEnterEvent *event) override;
    void leaveEvent(QEvent *event) override;
    void changeEvent(QEvent *event) override;

private:
    void retranslateUi();
    void updateIcon();
    void updateStatusColor();
    void updateDescription();

    QString m_iconName;
    QIcon m_iconImage;
    ToolStatus m_status;
    bool m_expanded = false;
    bool m_expandable = true;
    bool m_pressed = false;
    QWidget *m_icon = nullptr; // holds the icon's place
    ToolTitleLabel *m_title = nullptr;
    ToolTitleLabel *m_subtitle = nullptr;
    ToolSpinner *m_spinner = nullptr;
    QLabel *m_statusLabel = nullptr;
    QToolButton *m_open = nullptr;
};

} // namespace qcode
