#include "AgentPicker.h"

#include <QActionGroup>
#include <QEvent>
#include <QMenu>

using namespace Qt::StringLiterals;

namespace qcode {

AgentPicker::AgentPicker(QWidget *parent) : QToolButton(parent)
{
    setObjectName(u"agentPicker"_s);
    setToolButtonStyle(Qt::ToolButtonTextOnly);
    // Opened with popup(), not as the button's own menu: QToolButton runs
    // its menu in a nested event loop (QMenu::exec).
    m_menu = new QMenu(this);
    connect(this, &QToolButton::clicked, this, &AgentPicker::openMenu);
    m_group = new QActionGroup(this);
    m_group->setExclusive(true);
    updateText();
}

void AgentPicker::setAgents(const QList<AgentChoice> &agents)
{
    m_primary.clear();
    for (const AgentChoice &agent : agents)
        if (agent.primary)
            m_primary.append(agent);
    if (m_current.isEmpty() && !m_primary.isEmpty())
        m_current = m_primary.constFirst().name;
    rebuildMenu();
    updateText();
}

QStringList AgentPicker::primaryAgents() const
{
    QStringList names;
    for (const AgentChoice &agent : m_primary)
        names.append(agent.name);
    return names;
}

void AgentPicker::setCurrentAgent(const QString &name)
{
    m_current = name;
    for (QAction *action : m_group->actions())
        action->setChecked(action->data().toString() == name);
    updateText();
}

void AgentPicker::openMenu()
{
    if (!m_primary.isEmpty())
        m_menu->popup(mapToGlobal(QPoint(0, height())));
}

void AgentPicker::cycle(int step)
{
    const QStringList names = primaryAgents();
    if (names.isEmpty())
        return;
    const qsizetype at = names.indexOf(m_current);
    const qsizetype count = names.size();
    const qsizetype next = at < 0 ? (step > 0 ? 0 : count - 1) : ((at + step) % count + count) % count;
    choose(names.at(next));
}

void AgentPicker::choose(const QString &name)
{
    if (name == m_current)
        return;
    setCurrentAgent(name);
    Q_EMIT agentChosen(name);
}

void AgentPicker::rebuildMenu()
{
    m_menu->clear(); // deletes the actions, which leave the group as they go
    for (const AgentChoice &agent : std::as_const(m_primary)) {
        QAction *action = m_menu->addAction(agent.name);
        action->setData(agent.name);
        action->setCheckable(true);
        action->setChecked(agent.name == m_current);
        action->setToolTip(agent.description);
        action->setStatusTip(agent.description);
        m_group->addAction(action);
        connect(action, &QAction::triggered, this, [this, name = agent.name] { choose(name); });
    }
    m_menu->setToolTipsVisible(true);
}

void AgentPicker::updateText()
{
    setText(m_current.isEmpty() ? tr("No agent") : m_current);
    setToolTip(tr("Agent for the next prompt: %1 (Ctrl+. and Ctrl+Shift+. in the prompt switch agents)")
                   .arg(m_current.isEmpty() ? tr("none") : m_current));
    setEnabled(!m_primary.isEmpty());
}

void AgentPicker::changeEvent(QEvent *event)
{
    QToolButton::changeEvent(event);
    if (event->type() == QEvent::LanguageChange)
        updateText();
}

} // namespace qcode
