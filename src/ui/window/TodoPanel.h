#pragma once

#include <QFrame>
#include <QList>

#include "model/Todo.h"

class QLabel;
class QToolButton;
class QVBoxLayout;

namespace qcode {

// The agent's plan for the open session (todowrite): a header with the
// count done, and the items with their state, collapsible. Hidden while
// the list is empty.
class TodoPanel : public QFrame
{
    Q_OBJECT

public:
    explicit TodoPanel(QWidget *parent = nullptr);

    void setTodos(const QList<Todo> &todos);
    QString headerText() const;
    QStringList itemTexts() const;
    bool isExpanded() const;
    void setExpanded(bool expanded);

protected:
    void changeEvent(QEvent *event) override;

private:
    QList<Todo> m_todos;
    QToolButton *m_header = nullptr;
    QWidget *m_items = nullptr;
    QVBoxLayout *m_itemsLayout = nullptr;
    QList<QLabel *> m_labels;
};

} // namespace qcode
