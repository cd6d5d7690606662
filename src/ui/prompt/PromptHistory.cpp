#include "PromptHistory.h"

#include <QCryptographicHash>
#include <QDir>
#include <QSettings>

using namespace Qt::StringLiterals;

namespace qcode {

QString PromptHistory::settingsKey(const QString &projectDirectory)
{
    // A path is full of "/", which QSettings reads as nested groups; a hash
    // of it is one flat, stable key.
    const QString clean = projectDirectory.isEmpty() ? QString() : QDir::cleanPath(projectDirectory);
    const QByteArray hash = QCryptographicHash::hash(clean.toUtf8(), QCryptographicHash::Sha1).toHex();
    return u"prompt/history/"_s + QString::fromLatin1(hash);
}

void PromptHistory::setProject(const QString &projectDirectory)
{
    m_key = settingsKey(projectDirectory);
    m_entries = QSettings().value(m_key).toStringList();
    if (m_entries.size() > MaxEntries)
        m_entries = m_entries.mid(m_entries.size() - MaxEntries);
    endWalk();
}

void PromptHistory::add(const QString &text)
{
    endWalk();
    if (text.trimmed().isEmpty() || (!m_entries.isEmpty() && m_entries.constLast() == text))
        return;
    m_entries.append(text);
    if (m_entries.size() > MaxEntries)
        m_entries.remove(0, m_entries.size() - MaxEntries);
    if (m_key.isEmpty())
        m_key = settingsKey(QString());
    QSettings().setValue(m_key, m_entries);
}

std::optional<QString> PromptHistory::previous(const QString &current)
{
    if (m_entries.isEmpty() || m_position == 0)
        return std::nullopt;
    if (m_position < 0) {
        m_draft = current;
        m_position = m_entries.size();
    }
    --m_position;
    return m_entries.at(m_position);
}

std::optional<QString> PromptHistory::next()
{
    if (m_position < 0)
        return std::nullopt;
    ++m_position;
    if (m_position < m_entries.size())
        return m_entries.at(m_position);
    const QString draft = m_draft;
    endWalk();
    return draft;
}

void PromptHistory::endWalk()
{
    m_position = -1;
    m_draft.clear();
}

} // namespace qcode
