#pragma once

#include <QList>
#include <QObject>
#include <QPointer>
#include <QStringList>

#include "CompletionItem.h"
#include "CompletionPopup.h"
#include "PromptChoices.h"
#include "PromptTextParser.h"

class QKeyEvent;

namespace qcode {

class PromptEditor;

// The "@" and "/" popups of one editor. Typing "@" anywhere a word may
// start lists agents and project paths, "/" at the very start lists
// commands; what follows filters them fuzzily, and the popup follows the
// text as it changes.
//
// Keys while open: Up/Down (and Page Up/Down) move, Escape closes until the
// token is left, Enter and Tab choose. Choosing a path or an agent inserts
// "@value " (Tab on a folder inserts "@folder/" and keeps listing inside
// it). Choosing a command writes "/name"; Enter on a built-in then sends it
// at once (sendRequested: built-ins act when chosen), while a custom command
// and Tab leave "/name " to type its arguments after.
class PromptCompleter : public QObject
{
    Q_OBJECT

public:
    static constexpr qsizetype MaxRows = 50;

    explicit PromptCompleter(PromptEditor *editor);
    ~PromptCompleter() override;

    void setAgents(const QList<AgentChoice> &agents);
    void setCommands(const QList<SlashCommand> &commands);
    void setPaths(const QStringList &paths);
    QList<SlashCommand> commands() const { return m_commands; }

    bool isOpen() const;
    CompletionPopup *popup() const { return m_popup; }
    // Handles the popup's keys while it is open; false for any other key.
    bool handleKey(QKeyEvent *event);
    void close();
    // Reads the token at the cursor again; `force` also when neither the
    // text nor the cursor moved (the lists changed).
    void refresh(bool force = false);

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

Q_SIGNALS:
    void fileChosen(const QString &relativePath);
    void sendRequested();
    void openChanged(bool open);

private:
    enum class Mode { Closed, Mention, Command };
    enum class Choice { Enter, Tab };

    void choose(int row, Choice how);
    void replaceToken(const QString &replacement, bool spaceAfter);
    void setOpen(bool open);

    PromptEditor *m_editor = nullptr;
    QPointer<CompletionPopup> m_popup;
    QList<AgentChoice> m_agents;
    QList<SlashCommand> m_commands;
    QStringList m_paths;
    Mode m_mode = Mode::Closed;
    PromptTextParser::Token m_token;
    qsizetype m_dismissedAt = -1; // the token Escape closed the popup on
    bool m_open = false;
    bool m_replacing = false;
    QString m_seenText;
    int m_seenCursor = -1;
};

} // namespace qcode
