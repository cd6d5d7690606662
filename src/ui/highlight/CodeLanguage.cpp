#include "CodeLanguage.h"

#include <QHash>

using namespace Qt::StringLiterals;

namespace qcode {
namespace {

// Alias → canonical name. Canonical names follow KSyntaxHighlighting's
// spelling where one exists, so that backend can look them up directly.
const QHash<QString, QString> &aliases()
{
    static const QHash<QString, QString> table = [] {
        QHash<QString, QString> t;
        const auto add = [&t](const QString &canonical, std::initializer_list<QString> names) {
            t.insert(canonical, canonical);
            for (const QString &name : names)
                t.insert(name, canonical);
        };
        add(u"cpp"_s, {u"c++"_s, u"cxx"_s, u"cc"_s, u"hpp"_s, u"hxx"_s, u"hh"_s, u"h++"_s, u"h"_s, u"ipp"_s, u"inl"_s,
                       u"tpp"_s, u"cu"_s, u"cuda"_s, u"qt"_s, u"moc"_s});
        add(u"c"_s, {});
        add(u"csharp"_s, {u"cs"_s, u"c#"_s});
        add(u"java"_s, {});
        add(u"javascript"_s, {u"js"_s, u"jsx"_s, u"mjs"_s, u"cjs"_s, u"node"_s});
        add(u"typescript"_s, {u"ts"_s, u"tsx"_s, u"mts"_s, u"cts"_s});
        add(u"python"_s, {u"py"_s, u"python3"_s, u"py3"_s, u"pyw"_s, u"pyi"_s, u"gyp"_s});
        add(u"ruby"_s, {u"rb"_s, u"rake"_s, u"gemspec"_s});
        add(u"rust"_s, {u"rs"_s});
        add(u"go"_s, {u"golang"_s});
        add(u"bash"_s, {u"sh"_s, u"shell"_s, u"ksh"_s, u"console"_s, u"shellsession"_s, u"shell-session"_s,
                        u"terminal"_s, u"bashrc"_s, u"profile"_s});
        add(u"zsh"_s, {u"zshrc"_s});
        add(u"powershell"_s, {u"ps1"_s, u"pwsh"_s, u"psm1"_s});
        add(u"json"_s, {u"jsonc"_s, u"json5"_s, u"jsonl"_s, u"geojson"_s});
        add(u"diff"_s, {u"patch"_s, u"udiff"_s});
        add(u"makefile"_s, {u"make"_s, u"mk"_s, u"mak"_s, u"gnumakefile"_s});
        add(u"cmake"_s, {u"cmakelists.txt"_s});
        add(u"html"_s, {u"htm"_s, u"xhtml"_s});
        add(u"xml"_s, {u"svg"_s, u"xsd"_s, u"xsl"_s, u"xslt"_s, u"plist"_s, u"ui"_s, u"qrc"_s, u"kcfg"_s});
        add(u"css"_s, {});
        add(u"scss"_s, {u"sass"_s});
        add(u"yaml"_s, {u"yml"_s});
        add(u"toml"_s, {});
        add(u"ini"_s, {u"cfg"_s, u"desktop"_s});
        add(u"sql"_s, {u"mysql"_s, u"psql"_s, u"sqlite"_s, u"postgresql"_s});
        add(u"php"_s, {});
        add(u"perl"_s, {u"pm"_s});
        add(u"lua"_s, {});
        add(u"haskell"_s, {u"hs"_s});
        add(u"kotlin"_s, {u"kt"_s, u"kts"_s});
        add(u"swift"_s, {});
        add(u"scala"_s, {u"sc"_s});
        add(u"lisp"_s, {u"elisp"_s, u"el"_s, u"cl"_s, u"emacs-lisp"_s});
        add(u"scheme"_s, {u"scm"_s});
        add(u"erlang"_s, {u"erl"_s});
        add(u"ocaml"_s, {u"ml"_s, u"mli"_s});
        add(u"fortran"_s, {u"f90"_s, u"f95"_s, u"f"_s, u"f77"_s});
        add(u"pascal"_s, {u"pas"_s, u"delphi"_s});
        add(u"latex"_s, {u"tex"_s});
        add(u"vim"_s, {u"vimrc"_s, u"viml"_s});
        add(u"tcl"_s, {});
        add(u"awk"_s, {});
        add(u"batch"_s, {u"bat"_s, u"cmd"_s});
        add(u"asm"_s, {u"nasm"_s, u"s"_s});
        add(u"protobuf"_s, {u"proto"_s});
        add(u"glsl"_s, {u"vert"_s, u"frag"_s});
        add(u"d"_s, {});
        add(u"vala"_s, {});
        add(u"groovy"_s, {u"gradle"_s});
        add(u"coffeescript"_s, {u"coffee"_s});
        add(u"r"_s, {});
        add(u"dockerfile"_s, {u"docker"_s, u"containerfile"_s});
        add(u"markdown"_s, {u"md"_s});
        add(u"qml"_s, {});
        return t;
    }();
    return table;
}

// A fence's first word: "{.python title=x}" → "python", "c++" stays.
QString firstWord(const QString &info)
{
    QString word = info.trimmed().section(QChar(u' '), 0, 0, QString::SectionSkipEmpty);
    if (word.startsWith(u'{'))
        word.remove(0, 1);
    if (word.endsWith(u'}'))
        word.chop(1);
    if (word.startsWith(u'.') && word.size() > 1 && !word.mid(1).contains(u'.'))
        word.remove(0, 1);
    return word.toLower();
}

} // namespace

QString canonicalLanguage(const QString &languageOrFileName)
{
    QString name = firstWord(languageOrFileName);
    if (name.isEmpty())
        return {};
    if (auto it = aliases().constFind(name); it != aliases().constEnd())
        return *it;
    // A path or file name: the base name first (Makefile, .bashrc), then the extension.
    const QString baseName = name.section(QChar(u'/'), -1);
    const QString bareName = baseName.startsWith(u'.') ? baseName.mid(1) : baseName;
    if (auto it = aliases().constFind(bareName); it != aliases().constEnd())
        return *it;
    const qsizetype dot = bareName.lastIndexOf(u'.');
    if (dot >= 0) {
        if (auto it = aliases().constFind(bareName.mid(dot + 1)); it != aliases().constEnd())
            return *it;
    }
    return name;
}

} // namespace qcode
