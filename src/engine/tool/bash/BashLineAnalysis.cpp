#include "BashLineAnalysis.h"

#include "BashLineWalker.h"
#include "BashSyntaxTree.h"

using namespace Qt::StringLiterals;

namespace qcode {

QStringList BashLineAnalysis::Command::tokens() const
{
    QStringList out;
    out.reserve(words.size());
    for (const Word &word : words)
        out.append(word.raw);
    return out;
}

bool BashLineAnalysis::Command::isStatic() const
{
    return std::all_of(words.cbegin(), words.cend(), [](const Word &word) { return word.isFixed(); });
}

BashLineAnalysis BashLineAnalysis::analyze(const QString &line)
{
    BashLineAnalysis analysis;
    const BashSyntaxTree tree(line);
    BashLineWalker walker(tree, analysis);
    walker.run();
    return analysis;
}

bool BashLineAnalysis::touchesPaths(const Command &command)
{
    static const QStringList names{u"cd"_s,    u"rm"_s,    u"cp"_s,    u"mv"_s,   u"mkdir"_s, u"touch"_s,
                                   u"chmod"_s, u"chown"_s, u"cat"_s,   u"ln"_s,   u"rmdir"_s, u"tee"_s,
                                   u"pushd"_s, u"truncate"_s, u"install"_s};
    return !command.setsVariables && names.contains(command.name());
}

QStringList BashLineAnalysis::pathArguments(const Command &command)
{
    if (!touchesPaths(command))
        return {};
    const bool chmod = command.name() == "chmod"_L1;
    QStringList paths;
    for (qsizetype k = 1; k < command.words.size(); ++k) {
        const std::optional<QString> &value = command.words.at(k).value;
        if (!value || value->isEmpty() || value->startsWith(u'-') || (chmod && value->startsWith(u'+')))
            continue;
        paths.append(*value);
    }
    return paths;
}

} // namespace qcode
