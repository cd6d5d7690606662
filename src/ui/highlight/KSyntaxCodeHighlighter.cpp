#ifdef QCODE_HAVE_KSYNTAXHIGHLIGHTING

#include "KSyntaxCodeHighlighter.h"

#include <QHash>

#include <KSyntaxHighlighting/AbstractHighlighter>
#include <KSyntaxHighlighting/Definition>
#include <KSyntaxHighlighting/Format>
#include <KSyntaxHighlighting/Repository>
#include <KSyntaxHighlighting/State>
#include <KSyntaxHighlighting/Theme>

#include "CodeLanguage.h"
#include "HighlightLogging.h"

using namespace Qt::StringLiterals;

namespace qcode {
namespace {

// Longer lines (minified files, data blobs) stay plain: nobody reads their
// colours, and they would stall the GUI thread.
constexpr qsizetype MaxHighlightedLineLength = 5000;
// Distinct line-end states remembered per definition, and language strings.
constexpr qsizetype MaxStates = 1024;
constexpr qsizetype MaxRememberedNames = 512;

// AbstractHighlighter keeps highlightLine() protected and reports formats
// through a virtual: this adapter runs one line and collects its spans.
class LineHighlighter : public KSyntaxHighlighting::AbstractHighlighter
{
public:
    KSyntaxHighlighting::State run(QStringView line, const KSyntaxHighlighting::State &state, QList<HighlightSpan> *spans)
    {
        m_spans = spans;
        KSyntaxHighlighting::State after = highlightLine(line, state);
        m_spans = nullptr;
        return after;
    }

protected:
    void applyFormat(int offset, int length, const KSyntaxHighlighting::Format &format) override
    {
        const KSyntaxHighlighting::Theme current = theme();
        if (!m_spans || length <= 0 || format.isDefaultTextStyle(current))
            return;
        QTextCharFormat charFormat;
        if (format.hasTextColor(current))
            charFormat.setForeground(format.textColor(current));
        if (format.hasBackgroundColor(current))
            charFormat.setBackground(format.backgroundColor(current));
        if (format.isBold(current))
            charFormat.setFontWeight(QFont::Bold);
        if (format.isItalic(current))
            charFormat.setFontItalic(true);
        if (format.isUnderline(current))
            charFormat.setFontUnderline(true);
        if (format.isStrikeThrough(current))
            charFormat.setFontStrikeOut(true);
        m_spans->append({offset, length, charFormat});
    }

private:
    QList<HighlightSpan> *m_spans = nullptr;
};

// Canonical names (CodeLanguage.h) spelled the way Kate's definitions are
// named, where a case-insensitive match of the canonical name is not enough.
QString definitionName(const QString &canonical)
{
    static const QHash<QString, QString> names = {
        {u"cpp"_s, u"C++"_s},
        {u"csharp"_s, u"C#"_s},
        {u"ini"_s, u"INI Files"_s},
        {u"lisp"_s, u"Common Lisp"_s},
        {u"ocaml"_s, u"Objective Caml"_s},
        {u"fortran"_s, u"Fortran (Free Format)"_s},
        {u"batch"_s, u"MS-DOS Batch"_s},
        {u"asm"_s, u"GNU Assembler"_s},
        {u"r"_s, u"R Script"_s},
        {u"php"_s, u"PHP/PHP"_s},
        {u"tcl"_s, u"Tcl/Tk"_s},
    };
    return names.value(canonical, canonical);
}

} // namespace

struct KSyntaxCodeHighlighter::Private {
    KSyntaxHighlighting::Definition definitionFor(const QString &language);
    int remember(QList<KSyntaxHighlighting::State> &table, const KSyntaxHighlighting::State &state) const;

    KSyntaxHighlighting::Repository repository;
    LineHighlighter highlighter;
    QHash<QString, KSyntaxHighlighting::Definition> definitions; // invalid: unknown language
    QHash<QString, QList<KSyntaxHighlighting::State>> states;     // by definition name; [0] is the initial state
};

KSyntaxHighlighting::Definition KSyntaxCodeHighlighter::Private::definitionFor(const QString &language)
{
    if (auto it = definitions.constFind(language); it != definitions.constEnd())
        return *it;
    if (definitions.size() >= MaxRememberedNames)
        definitions.clear();
    const QString trimmed = language.trimmed();
    KSyntaxHighlighting::Definition definition;
    if (trimmed.contains(u'.') || trimmed.contains(u'/'))
        definition = repository.definitionForFileName(trimmed);
    const QString canonical = canonicalLanguage(language);
    if (!definition.isValid() && !canonical.isEmpty())
        definition = repository.definitionForName(definitionName(canonical));
    if (!definition.isValid() && !canonical.isEmpty())
        definition = repository.definitionForFileName(u"file."_s + canonical);
    definitions.insert(language, definition);
    return definition;
}

int KSyntaxCodeHighlighter::Private::remember(QList<KSyntaxHighlighting::State> &table,
                                              const KSyntaxHighlighting::State &state) const
{
    // Line ends mostly return to a recent state: search from the newest.
    for (qsizetype i = table.size() - 1; i >= 0; --i) {
        if (table.at(i) == state)
            return int(i);
    }
    if (table.size() >= MaxStates)
        return 0;
    table.append(state);
    return int(table.size() - 1);
}

KSyntaxCodeHighlighter::KSyntaxCodeHighlighter() : m_d(std::make_unique<Private>())
{
    setDark(false);
    qCInfo(lcHighlight) << "Highlighting code with KSyntaxHighlighting," << m_d->repository.definitions().size()
                        << "definitions";
}

KSyntaxCodeHighlighter::~KSyntaxCodeHighlighter() = default;

QString KSyntaxCodeHighlighter::backendName() const
{
    return u"KSyntaxHighlighting"_s;
}

bool KSyntaxCodeHighlighter::knowsLanguage(const QString &language) const
{
    return m_d->definitionFor(language).isValid();
}

int KSyntaxCodeHighlighter::highlightLine(const QString &language, const QString &line, int state,
                                          QList<HighlightSpan> &spans)
{
    const KSyntaxHighlighting::Definition definition = m_d->definitionFor(language);
    if (!definition.isValid())
        return 0;
    QList<KSyntaxHighlighting::State> &table = m_d->states[definition.name()];
    if (table.isEmpty())
        table.append(KSyntaxHighlighting::State());
    const int before = state >= 0 && state < table.size() ? state : 0;
    if (line.size() > MaxHighlightedLineLength)
        return before;
    if (m_d->highlighter.definition() != definition)
        m_d->highlighter.setDefinition(definition);
    const KSyntaxHighlighting::State after = m_d->highlighter.run(line, table.at(before), &spans);
    return m_d->remember(table, after);
}

void KSyntaxCodeHighlighter::setDark(bool dark)
{
    m_d->highlighter.setTheme(m_d->repository.defaultTheme(dark ? KSyntaxHighlighting::Repository::DarkTheme
                                                                : KSyntaxHighlighting::Repository::LightTheme));
}

} // namespace qcode

#endif
