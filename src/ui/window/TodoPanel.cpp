#include "TodoPanel.h"

#include <QEvent>
#include <QLabel>
#include <QToolButton>
#include <QVBoxLayout>

#include "ui/chat/ChatColors.h"

using namespace Qt::StringLiterals;

namespace qcode {
namespace {

QString markOf(const QString &status)
{
    if (status == "completed"_L1)
        return u"☑"_s;
    if (status == "in_progress"_L1)
        return u"▶"_s;
    if (status == "cancelled"_L1)
        return u"☒"_s;
    return u"☐"_s;
}

} // namespace

TodoPanel::TodoPanel(QWidget *parent) : QFrame(parent)
{
    setObjectName(u"todoPanel"_s);
    setFrameShape(QFrame::StyledPanel);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(8, 4, 8, 4);
    layout->setSpacing(2);
    m_header = new QToolButton(this);
    m_header->setObjectName(u"todoHeader"_s);
    m_header->setCheckable(true);
    m_header->setChecked(true);
    m_header->setAutoRaise(true);
    m_header->setArrowType(Qt::DownArrow);
    m_header->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    layout->addWidget(m_header, 0, Qt::AlignLeft);
    m_items = new QWidget(this);
    m_itemsLayout = new QVBoxLayout(m_items);
    m_itemsLayout->setContentsMargins(12, 0, 0, 0);
    m_itemsLayout->setSpacing(1);
    layout->addWidget(m_items);
    connect(m_header, &QToolButton::toggled, this, &TodoPanel::setExpanded);
    setTodos({});
}

void TodoPanel::setTodos(const QList<Todo> &todos)
{
    m_todos = todos;
    m_header->setToolTip(tr("Show or hide the agent's plan"));
    qDeleteAll(m_labels);
    m_labels.clear();
    int done = 0;
    for (const Todo &todo : todos) {
        done += todo.status == "completed"_L1 ? 1 : 0;
        auto *label = new QLabel(markOf(todo.status) + u' ' + todo.content, m_items);
        label->setTextFormat(Qt::PlainText);
        label->setWordWrap(true);
        label->setTextInteractionFlags(Qt::TextSelectableByMouse);
        if (todo.status == "completed"_L1 || todo.status == "cancelled"_L1) {
            QPalette palette = label->palette();
            palette.setColor(QPalette::WindowText, ChatColors::muted(this->palette()));
            label->setPalette(palette);
        } else if (todo.status == "in_progress"_L1) {
            QFont bold = label->font();
            bold.setBold(true);
            label->setFont(bold);
        }
        label->setToolTip(tr("%1 · priority %2").arg(todo.status, todo.priority));
        m_itemsLayout->addWidget(label);
        m_labels.append(label);
    }
    m_header->setText(tr("Plan: %1 of %2 done").arg(done).arg(todos.size()));
    setVisible(!todos.isEmpty());
}

QString TodoPanel::headerText() const
{
    return m_header->text();
}

QStringList TodoPanel::itemTexts() const
{
    QStringList texts;
    for (const QLabel *label : m_labels)
        texts.append(label->text());
    return texts;
}

void TodoPanel::changeEvent(QEvent *event)
{
    QFrame::changeEvent(event);
    if (event->type() == QEvent::LanguageChange)
        setTodos(m_todos);
}

bool TodoPanel::isExpanded() const
{
    return m_header->isChecked();
}

void TodoPanel::setExpanded(bool expanded)
{
    if (m_header->isChecked() != expanded)
        m_header->setChecked(expanded);
    m_header->setArrowType(expanded ? Qt::DownArrow : Qt::RightArrow);
    m_items->setVisible(expanded);
}

} // namespace qcode
