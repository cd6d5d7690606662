#include "BashLineGenerator.h"

#include <QStringList>

using namespace Qt::StringLiterals;

namespace qcode {

namespace {

constexpr int MaxDepth = 3;

} // namespace

BashLineGenerator::BashLineGenerator(quint32 seed)
    : m_random(seed)
{
}

BashLineGenerator::BashLineGenerator(const QByteArray &choices)
    : m_choices(choices)
    , m_fromBytes(true)
{
}

int BashLineGenerator::pick(int bound)
{
    if (bound <= 1)
        return 0;
    if (!m_fromBytes)
        return int(m_random.bounded(quint32(bound)));
    // Past the end of the bytes every choice is the first: lines stay short.
    if (m_next >= m_choices.size())
        return 0;
    return int(quint8(m_choices.at(m_next++))) % bound;
}

QString BashLineGenerator::line()
{
    QString out = list(0);
    // A here-doc's body follows its line, so it ends the generated line.
    if (chance(12))
        out += u'\n' + name() + u' ' + heredoc(0);
    return out;
}

QString BashLineGenerator::list(int depth)
{
    static const char *const separators[] = {"; ", " && ", " || ", "\n", " ; ", ";"};
    QString out = pipeline(depth);
    const int more = pick(depth == 0 ? 4 : 2);
    for (int k = 0; k < more; ++k)
        out += QString::fromLatin1(oneOf(separators)) + pipeline(depth);
    if (chance(5))
        out += u" # "_s + name() + u" $(rm -rf x)"_s;
    return out;
}

QString BashLineGenerator::pipeline(int depth)
{
    QString out = chance(8) ? u"! "_s : QString();
    out += command(depth);
    const int more = pick(3) == 0 ? 1 : 0;
    for (int k = 0; k < more; ++k)
        out += (chance(80) ? u" | "_s : u" |& "_s) + command(depth);
    return out;
}

QString BashLineGenerator::command(int depth)
{
    if (depth < MaxDepth && chance(30))
        return compound(depth + 1);
    return simple(depth);
}

QString BashLineGenerator::name()
{
    static const char *const names[] = {"ls", "cat", "grep", "rm", "touch", "echo", "printf", "sort", "mkdir",
                                        "wc", "head", "x1", "y2", "true", "git", "make", "sed", "cp"};
    return QString::fromLatin1(oneOf(names));
}

QString BashLineGenerator::simple(int depth)
{
    QString out;
    if (chance(10))
        out += oneOf({u"A=1 "_s, u"B=$(z1) "_s, u"C=\"$(z2)\" "_s, u"a[0]=1 "_s, u"D=~/x "_s});
    switch (pick(20)) {
    case 0:
        out += oneOf({u"env "_s, u"env A=1 "_s, u"nice -n 5 "_s, u"timeout 5 "_s, u"nohup "_s, u"time "_s,
                      u"command "_s, u"xargs -0 "_s, u"sudo -u u1 "_s, u"stdbuf -o0 "_s, u"builtin "_s});
        break;
    case 1:
        return out + oneOf({u"declare x=1"_s, u"export E=1 F"_s, u"local v"_s, u"readonly r=2"_s, u"unset q"_s,
                            u"declare -a arr=(1 2)"_s, u"typeset t=$(z3)"_s, u"x=1"_s, u"y=$(z4) z=2"_s,
                            u"arr=(a $(z5) [3]=c)"_s, u"read w"_s, u"printf -v pv x"_s, u"declare 'a[$(z6)]=1'"_s,
                            u"read 'a[$(z7)]'"_s});
    case 2:
        return out + oneOf({u"find . -name x -exec "_s + name() + u" {} \\;"_s,
                            u"find . -execdir "_s + name() + u" -l {} +"_s, u"eval "_s + name(),
                            u"bash -c '"_s + name() + u"'"_s, u"sh -c \""_s + name() + u"\""_s,
                            u"source ./f"_s, u". ./f"_s, u"exec "_s + name(), u"trap '"_s + name() + u"' EXIT"_s,
                            u"alias a="_s + name(), u"let x=1"_s, u"set -e"_s, u"set -- a b"_s});
    default:
        break;
    }
    out += chance(10) ? word(depth) : name();
    const int arguments = pick(4);
    for (int k = 0; k < arguments; ++k)
        out += u' ' + word(depth);
    if (chance(20))
        out += u' ' + redirect(depth);
    return out;
}

QString BashLineGenerator::compound(int depth)
{
    switch (pick(13)) {
    case 0:
        return u"( "_s + list(depth) + u" )"_s;
    case 1:
        return u"{ "_s + list(depth) + u"; }"_s;
    case 2:
        return u"if "_s + pipeline(depth) + u"; then "_s + list(depth)
               + (chance(50) ? u"; else "_s + list(depth) : QString()) + u"; fi"_s;
    case 3:
        return u"for v in "_s + word(depth) + u' ' + word(depth) + u"; do "_s + list(depth) + u"; done"_s;
    case 4:
        return u"while false; do "_s + list(depth) + u"; done"_s;
    case 5:
        return u"until true; do "_s + list(depth) + u"; done"_s;
    case 6:
        return u"case "_s + word(depth) + u" in "_s + word(depth) + u") "_s + list(depth) + u";; *) "_s + list(depth)
               + u";; esac"_s;
    case 7:
        return u"[[ "_s + word(depth) + oneOf({u" == "_s, u" != "_s, u" =~ "_s, u" -eq "_s, u" < "_s})
               + word(depth) + u" ]]"_s;
    case 8:
        return oneOf({u"(( 1 + 2 ))"_s, u"(( x ))"_s, u"(( $(z8) ))"_s, u"for ((i=0;i<1;i++)); do "_s + name()
                                                                               + u"; done"_s});
    case 9:
        return u"f() { "_s + list(depth) + u"; }; f"_s;
    case 10:
        return u"[ "_s + oneOf({u"-f "_s, u"-n "_s, u"-z "_s, u"! -d "_s, u""_s}) + word(depth) + u" ]"_s;
    case 11:
        return u"test "_s + word(depth) + oneOf({u" = "_s, u" != "_s}) + word(depth);
    default:
        return u"{ "_s + list(depth) + u"; } > out"_s + QString::number(pick(3));
    }
}

QString BashLineGenerator::word(int depth)
{
    if (depth < MaxDepth && chance(25))
        return expansion(depth + 1);
    switch (pick(12)) {
    case 0:
        return quoted(depth);
    case 1:
        return u"'"_s + oneOf({u"a b"_s, u"$(z9)"_s, u"`z10`"_s, u"x;y"_s}) + u"'"_s;
    case 2:
        return oneOf({u"*.txt"_s, u"f?"_s, u"[ab]"_s, u"{a,b}"_s, u"{1..2}"_s, u"~"_s, u"~/d"_s, u"a\\ b"_s,
                      u"\\$(z11)"_s, u"x=1"_s, u"-l"_s, u"--all"_s, u"./f"_s, u"../up"_s});
    case 3:
        return u"$'"_s + oneOf({u"a\\nb"_s, u"$(z12)"_s, u"\\x41"_s}) + u"'"_s;
    case 4:
        return u"$\""_s + oneOf({u"t"_s, u"$(z13)"_s}) + u"\""_s;
    default:
        return oneOf({u"a"_s, u"b"_s, u"file"_s, u"dir/x"_s, u"-n"_s, u"1"_s, u"0"_s, u"x"_s});
    }
}

QString BashLineGenerator::quoted(int depth)
{
    QString out = u"\""_s;
    const int parts = 1 + pick(3);
    for (int k = 0; k < parts; ++k) {
        switch (pick(6)) {
        case 0:
            out += depth < MaxDepth ? expansion(depth + 1) : u"$v"_s;
            break;
        case 1:
            out += u"\\\"q\\$ "_s;
            break;
        case 2:
            out += u"'s'"_s;
            break;
        default:
            out += oneOf({u"text "_s, u"a b"_s, u"$"_s, u"#"_s});
        }
    }
    return out + u"\""_s;
}

QString BashLineGenerator::expansion(int depth)
{
    switch (pick(16)) {
    case 0:
        return u"$("_s + list(depth) + u")"_s;
    case 1:
        return u"`"_s + simple(depth) + u"`"_s;
    case 2:
        return u"<("_s + list(depth) + u")"_s;
    case 3:
        return u">("_s + simple(depth) + u")"_s;
    case 4:
        return oneOf({u"$v"_s, u"${v}"_s, u"$1"_s, u"$@"_s, u"\"$@\""_s, u"$#"_s, u"$?"_s, u"${#v}"_s,
                      u"${arr[@]}"_s, u"${arr[0]}"_s});
    case 5:
        return u"${v:-"_s + word(depth) + u"}"_s;
    case 6:
        return u"${v/"_s + oneOf({u"a"_s, u"'a'"_s, u"*"_s}) + u"/"_s + word(depth) + u"}"_s;
    case 7:
        return oneOf({u"$((1+2))"_s, u"$((v+1))"_s, u"$[1+1]"_s, u"$(($(z14)))"_s});
    case 8:
        return oneOf({u"${!v}"_s, u"${v@P}"_s, u"${v@Q}"_s, u"${v:1:2}"_s, u"${v:i}"_s, u"${arr[i]}"_s});
    case 9:
        return u"\"$("_s + simple(depth) + u")\""_s;
    case 10:
        return u"${v#"_s + word(depth) + u"}"_s;
    case 11:
        return u"$(<"_s + oneOf({u"f"_s, u"g"_s}) + u")"_s;
    default:
        return u"$("_s + simple(depth) + u")"_s;
    }
}

QString BashLineGenerator::redirect(int depth)
{
    static const char *const operators[] = {">", ">>", "<", "2>", "&>", "2>&1", ">|", "<>", "<<<", "1>&2", ">&"};
    const QString op = QString::fromLatin1(oneOf(operators));
    if (op.endsWith(u'1') || op.endsWith(u'2'))
        return op;
    if (op == ">&"_L1)
        return op + u"out3"_s;
    return op + u' ' + (chance(70) ? oneOf({u"out1"_s, u"out2"_s, u"sub/o"_s}) : word(depth));
}

QString BashLineGenerator::heredoc(int depth)
{
    static const char *const starts[] = {"<<EOF", "<<'EOF'", "<<\"EOF\"", "<<-EOF", "<<\\EOF"};
    const QString start = QString::fromLatin1(oneOf(starts));
    const bool tabs = start.startsWith("<<-"_L1);
    QString body;
    const int lines = 1 + pick(2);
    for (int k = 0; k < lines; ++k) {
        body += (tabs ? u"\t"_s : QString())
                + oneOf({u"text"_s, u"$(z15)"_s, u"`z16`"_s, u"$v"_s, u"${v:-$(z17)}"_s, u"\\$(z18)"_s})
                + (depth < MaxDepth && chance(30) ? u" "_s + expansion(depth + 1).remove(u'\n') : QString()) + u'\n';
    }
    return start + u'\n' + body + (tabs ? u"\tEOF"_s : u"EOF"_s);
}

} // namespace qcode
