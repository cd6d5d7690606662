#include "PermissionDescription.h"

#include <QJsonDocument>

#include <utility>

#include "engine/session/loop/SessionProcessor.h"

using namespace Qt::StringLiterals;

namespace qcode {
namespace {

using Detail = PermissionDescription::Detail;

// A button stays readable: long patterns are cut in the middle (the
// tooltip has them whole), and only the first few are named.
constexpr qsizetype MaxPatternLength = 40;
constexpr qsizetype MaxPatternsNamed = 3;

QString metadataText(const PermissionRequest &request, const char *key)
{
    return request.metadata.value(QLatin1String(key)).toString();
}

QString orPatterns(const QString &text, const PermissionRequest &request)
{
    return text.isEmpty() ? request.patterns.join(u'\n') : text;
}

Detail text(const QString &label, const QString &text)
{
    return Detail{Detail::Kind::Text, label, text};
}

QString elided(const QString &pattern)
{
    if (pattern.size() <= MaxPatternLength)
        return pattern;
    const qsizetype half = (MaxPatternLength - 1) / 2;
    return pattern.left(half) + u'…' + pattern.right(half);
}

QString quoted(const QString &text)
{
    return PermissionDescription::tr("“%1”").arg(text);
}

// “a”, “b”, “c” and 2 more
QString namedPatterns(const QStringList &patterns)
{
    QStringList named;
    for (qsizetype i = 0; i < patterns.size() && i < MaxPatternsNamed; ++i)
        named.append(quoted(elided(patterns.at(i))));
    QString joined = named.join(", "_L1);
    if (patterns.size() > MaxPatternsNamed)
        joined = PermissionDescription::tr("%1 and %n more", nullptr, int(patterns.size() - MaxPatternsNamed))
                     .arg(joined);
    return joined;
}

// What "always" approves when it approves everything of a kind.
QString everything(const QString &permission)
{
    static const std::pair<QLatin1String, const char *> words[] = {
        {"edit"_L1, QT_TRANSLATE_NOOP("PermissionDescription", "every file edit")},
        {"read"_L1, QT_TRANSLATE_NOOP("PermissionDescription", "reading any file")},
        {"glob"_L1, QT_TRANSLATE_NOOP("PermissionDescription", "finding any files")},
        {"grep"_L1, QT_TRANSLATE_NOOP("PermissionDescription", "searching any file contents")},
        {"list"_L1, QT_TRANSLATE_NOOP("PermissionDescription", "listing any folder")},
        {"webfetch"_L1, QT_TRANSLATE_NOOP("PermissionDescription", "fetching any web page")},
        {"task"_L1, QT_TRANSLATE_NOOP("PermissionDescription", "starting any subagent")},
        {"todowrite"_L1, QT_TRANSLATE_NOOP("PermissionDescription", "updating the to-do list")},
        {"todoread"_L1, QT_TRANSLATE_NOOP("PermissionDescription", "reading the to-do list")},
    };
    for (const auto &[name, phrase] : words) {
        if (permission == name)
            return PermissionDescription::tr(phrase);
    }
    return PermissionDescription::tr("every “%1” request").arg(permission);
}

// What else a saved pattern lets through, said with an example, so that
// "always" is not a surprise later: "git status *" also lets "git status
// --short" run without asking.
QString coverage(const QString &permission, const QStringList &always)
{
    if (always.isEmpty())
        return {};
    if (always == QStringList{u"*"_s}) {
        if (permission == "edit"_L1)
            return PermissionDescription::tr("This allows the agent to change any file in the project without "
                                             "asking, not only the ones it asks about now.");
        return PermissionDescription::tr("This allows every request of this kind without asking, not only this "
                                         "one.");
    }
    const QString &first = always.first();
    const QString more = always.size() > 1
                             ? PermissionDescription::tr(" The same holds for the other %n pattern(s).", nullptr,
                                                         int(always.size() - 1))
                             : QString();
    if (permission == "bash"_L1 && first.endsWith(" *"_L1) && !first.chopped(2).contains(u'*')) {
        const QString stem = first.chopped(2);
        return PermissionDescription::tr("Saves the rule %1: it also allows any other %2 command, whatever follows "
                                         "it (for example %3).")
                   .arg(quoted(first), quoted(stem), quoted(stem + u" --help"_s))
               + more;
    }
    if (!first.contains(u'*') && !first.contains(u'?'))
        return PermissionDescription::tr("Saves the rule %1: it allows exactly that and nothing else.")
                   .arg(quoted(first))
               + more;
    return PermissionDescription::tr("Saves the rule %1, where “*” stands for any text: it also allows everything "
                                     "else that matches it.")
               .arg(quoted(first))
           + more;
}

void describeBash(const PermissionRequest &request, PermissionDescription &d)
{
    d.action = PermissionDescription::tr("Run a command");
    d.note = metadataText(request, "description");
    d.details.append(text(PermissionDescription::tr("Command"), orPatterns(metadataText(request, "command"), request)));
}

void describeEdit(const PermissionRequest &request, PermissionDescription &d)
{
    const int files = int(request.patterns.size());
    d.action = files == 1 ? PermissionDescription::tr("Edit a file")
                          : PermissionDescription::tr("Edit %n files", nullptr, files);
    d.details.append(text(files == 1 ? PermissionDescription::tr("File") : PermissionDescription::tr("Files"),
                          orPatterns({}, request)));
    if (const QString diff = metadataText(request, "diff"); !diff.isEmpty())
        d.details.append(Detail{Detail::Kind::Diff, PermissionDescription::tr("Changes"), diff});
}

void describeExternal(const PermissionRequest &request, PermissionDescription &d)
{
    const QString command = metadataText(request, "command");
    const QString path = metadataText(request, "filepath");
    if (!command.isEmpty()) {
        d.action = PermissionDescription::tr("Run a command that reaches outside the project");
        d.details.append(text(PermissionDescription::tr("Command"), command));
        d.details.append(text(PermissionDescription::tr("Folders outside the project"), orPatterns({}, request)));
        return;
    }
    const bool folder = !path.isEmpty() && path == metadataText(request, "parentDir");
    d.action = folder ? PermissionDescription::tr("Access a folder outside the project")
                      : PermissionDescription::tr("Access a file outside the project");
    d.details.append(text(PermissionDescription::tr("Outside the project"), orPatterns(path, request)));
}

void describeSearch(const PermissionRequest &request, PermissionDescription &d)
{
    d.action = request.permission == "glob"_L1 ? PermissionDescription::tr("Find files by name")
                                               : PermissionDescription::tr("Search file contents");
    d.details.append(text(PermissionDescription::tr("Pattern"), orPatterns(metadataText(request, "pattern"), request)));
    if (const QString path = metadataText(request, "path"); !path.isEmpty())
        d.details.append(text(PermissionDescription::tr("In folder"), path));
    if (const QString include = metadataText(request, "include"); !include.isEmpty())
        d.details.append(text(PermissionDescription::tr("In files named"), include));
}

void describeDoomLoop(const PermissionRequest &request, PermissionDescription &d)
{
    d.action = PermissionDescription::tr("The agent repeated the same call %n times (doom loop)", nullptr,
                                         SessionProcessor::DoomLoopThreshold);
    d.note = PermissionDescription::tr("It may be stuck. Allow it to go on with the same call, or tell it what to "
                                       "do instead.");
    d.details.append(text(PermissionDescription::tr("Tool"), orPatterns(metadataText(request, "tool"), request)));
    const QJsonObject input = request.metadata.value("input"_L1).toObject();
    if (!input.isEmpty())
        d.details.append(text(PermissionDescription::tr("Input"),
                              QString::fromUtf8(QJsonDocument(input).toJson(QJsonDocument::Indented)).trimmed()));
}

// The simple ones: an action and what it acts on.
bool describeSimple(const PermissionRequest &request, PermissionDescription &d)
{
    struct Simple {
        QLatin1String permission;
        const char *action;
        const char *label;
        const char *key;
    };
    static const Simple simple[] = {
        {"read"_L1, QT_TRANSLATE_NOOP("PermissionDescription", "Read a file"),
         QT_TRANSLATE_NOOP("PermissionDescription", "File"), ""},
        {"list"_L1, QT_TRANSLATE_NOOP("PermissionDescription", "List a folder"),
         QT_TRANSLATE_NOOP("PermissionDescription", "Folder"), "path"},
        {"webfetch"_L1, QT_TRANSLATE_NOOP("PermissionDescription", "Fetch a web page"),
         QT_TRANSLATE_NOOP("PermissionDescription", "Address"), "url"},
        {"websearch"_L1, QT_TRANSLATE_NOOP("PermissionDescription", "Search the web"),
         QT_TRANSLATE_NOOP("PermissionDescription", "Search"), "query"},
        {"codesearch"_L1, QT_TRANSLATE_NOOP("PermissionDescription", "Search for code on the web"),
         QT_TRANSLATE_NOOP("PermissionDescription", "Search"), "query"},
        {"task"_L1, QT_TRANSLATE_NOOP("PermissionDescription", "Start a subagent"),
         QT_TRANSLATE_NOOP("PermissionDescription", "Subagent"), "subagent_type"},
        {"skill"_L1, QT_TRANSLATE_NOOP("PermissionDescription", "Load a skill"),
         QT_TRANSLATE_NOOP("PermissionDescription", "Skill"), ""},
        {"todowrite"_L1, QT_TRANSLATE_NOOP("PermissionDescription", "Update the to-do list"), nullptr, ""},
        {"todoread"_L1, QT_TRANSLATE_NOOP("PermissionDescription", "Read the to-do list"), nullptr, ""},
    };
    for (const Simple &entry : simple) {
        if (request.permission != entry.permission)
            continue;
        d.action = PermissionDescription::tr(entry.action);
        if (request.permission == "task"_L1)
            d.note = metadataText(request, "description");
        if (entry.label)
            d.details.append(text(PermissionDescription::tr(entry.label), orPatterns(metadataText(request, entry.key),
                                                                                     request)));
        return true;
    }
    return false;
}

} // namespace

PermissionDescription PermissionDescription::describe(const PermissionRequest &request)
{
    PermissionDescription d;
    const QString &permission = request.permission;
    if (permission == "bash"_L1)
        describeBash(request, d);
    else if (permission == "edit"_L1)
        describeEdit(request, d);
    else if (permission == "external_directory"_L1)
        describeExternal(request, d);
    else if (permission == "glob"_L1 || permission == "grep"_L1)
        describeSearch(request, d);
    else if (permission == "doom_loop"_L1)
        describeDoomLoop(request, d);
    else if (!describeSimple(request, d)) {
        d.action = tr("Use “%1”").arg(permission);
        if (!request.patterns.isEmpty() && request.patterns != QStringList{u"*"_s})
            d.details.append(text(tr("On"), request.patterns.join(u'\n')));
    }

    if (request.always.isEmpty())
        return d;
    if (permission == "doom_loop"_L1)
        d.alwaysSubject = tr("repeated %1 calls").arg(namedPatterns(request.always));
    else if (request.always == QStringList{u"*"_s})
        d.alwaysSubject = everything(permission);
    else
        d.alwaysSubject = namedPatterns(request.always);
    d.alwaysTooltip = request.always.join(u'\n');
    d.alwaysCovers = coverage(permission, request.always);
    return d;
}

QString PermissionDescription::alwaysText(ApprovalScope scope) const
{
    QString subject = alwaysSubject;
    subject.replace(u'&', "&&"_L1); // a pattern's "&&" is no mnemonic
    switch (scope) {
    case ApprovalScope::Session:
        return tr("&Always allow %1 in this session").arg(subject);
    case ApprovalScope::Project:
        return tr("Always allow %1 in this &project").arg(subject);
    }
    return subject;
}

} // namespace qcode
