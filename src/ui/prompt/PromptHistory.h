#pragma once

#include <QString>
#include <QStringList>

#include <optional>

namespace qcode {

// The prompts sent in one project, oldest first, kept in QSettings so they
// survive a restart; at most MaxEntries. Up and Down walk them like a
// shell's history: the first step back keeps what was being typed (the
// draft) and stepping forward past the newest brings it back. Editing a
// recalled prompt changes only the editor, never the history.
class PromptHistory
{
public:
    static constexpr qsizetype MaxEntries = 100;

    // Loads the history of `projectDirectory` (an empty one: prompts typed
    // with no project open).
    void setProject(const QString &projectDirectory);
    QStringList entries() const { return m_entries; }

    // Records a sent prompt; a repeat of the newest entry is kept once.
    // Ends any walk.
    void add(const QString &text);

    // One step back: the older prompt, or nothing at the oldest (or with no
    // history). `current` is what the editor shows, kept as the draft on
    // the first step.
    std::optional<QString> previous(const QString &current);
    // One step forward: the newer prompt, the draft after the newest, or
    // nothing when not walking.
    std::optional<QString> next();
    bool isWalking() const { return m_position >= 0; }
    void endWalk();

    // The QSettings key a project's history lives under.
    static QString settingsKey(const QString &projectDirectory);

private:
    QString m_key;
    QStringList m_entries;
    qsizetype m_position = -1; // index into m_entries while walking
    QString m_draft;
};

} // namespace qcode
