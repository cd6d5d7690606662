#pragma once

#include <QList>
#include <QToolButton>

#include "PromptChoices.h"

class QActionGroup;
class QMenu;

namespace qcode {

// The primary agent the next prompt goes to: a button naming it, with a
// menu of the primary agents. Ctrl+. and Ctrl+Shift+. in the editor cycle them
// (cycle()). Subagents are not listed: they are reached with "@name".
class AgentPicker : public QToolButton
{
    Q_OBJECT

public:
    explicit AgentPicker(QWidget *parent = nullptr);

    void setAgents(const QList<AgentChoice> &agents);
    QStringList primaryAgents() const;
    // Shows `name` without announcing it (the caller knows).
    void setCurrentAgent(const QString &name);
    QString currentAgent() const { return m_current; }
    // Steps to the next (1) or previous (-1) primary agent and announces it.
    void cycle(int step);
    void openMenu();
    QMenu *menu() const { return m_menu; }

Q_SIGNALS:
    void agentChosen(const QString &name);

protected:
    void changeEvent(QEvent *event) override;

private:
    void rebuildMenu();
    void updateText();
    void choose(const QString &name);

    QList<AgentChoice> m_primary;
    QString m_current;
    QMenu *m_menu = nullptr;
    QActionGroup *m_group = nullptr;
};

} // namespace qcode
