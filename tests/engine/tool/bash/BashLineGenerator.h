#pragma once

#include <QByteArray>
#include <QRandomGenerator>
#include <QString>

#include <cstddef>
#include <initializer_list>

namespace qcode {

// Random bash lines built from the grammar's constructs (lists,
// pipelines, compound commands, every expansion and quoting form,
// redirections, here-docs, declarations, wrappers), for the differential
// test and the fuzz target. Words are harmless names and relative paths
// only: the lines are run by a real bash.
class BashLineGenerator
{
public:
    // Choices from a seeded generator (the corpus) …
    explicit BashLineGenerator(quint32 seed);
    // … or from a fuzzer's bytes, so mutating them mutates the line.
    explicit BashLineGenerator(const QByteArray &choices);

    QString line();

private:
    int pick(int bound);
    bool chance(int percent) { return pick(100) < percent; }
    template<typename T, std::size_t N>
    const T &oneOf(const T (&items)[N])
    {
        return items[pick(int(N))];
    }
    QString oneOf(std::initializer_list<QString> items) { return *(items.begin() + pick(int(items.size()))); }

    QString list(int depth);
    QString pipeline(int depth);
    QString command(int depth);
    QString simple(int depth);
    QString compound(int depth);
    QString word(int depth);
    QString quoted(int depth);
    QString expansion(int depth);
    QString redirect(int depth);
    QString heredoc(int depth);
    QString name();

    QRandomGenerator m_random;
    QByteArray m_choices;
    qsizetype m_next = 0;
    bool m_fromBytes = false;
};

} // namespace qcode
