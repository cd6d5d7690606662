#ifdef QCODE_HAVE_SOURCE_HIGHLIGHT

#include "SourceHighlightCodeHighlighter.h"

#include <QDir>
#include <QFileInfo>
#include <QHash>

#include <srchilite/formatter.h>
#include <srchilite/formattermanager.h>
#include <srchilite/formatterparams.h>
#include <srchilite/langdefmanager.h>
#include <srchilite/langmap.h>
#include <srchilite/regexrulefactory.h>
#include <srchilite/settings.h>

#include <array>
#include <exception>

#include "CodeLanguage.h"
#include "HighlightLogging.h"
#include "HighlightPalette.h"
#include "SourceHighlightLanguage.h"

using namespace Qt::StringLiterals;

namespace qcode {
namespace {

// Longer lines (minified files, data blobs) stay plain: srchilite's regular
// expressions are not linear on them, and nobody reads their colours.
constexpr qsizetype MaxHighlightedLineLength = 5000;
// Distinct language strings remembered (fence info strings, file names).
constexpr qsizetype MaxRememberedNames = 512;
constexpr std::size_t StyleCount = std::size_t(HighlightStyle::DiffHeader) + 1;

// A piece srchilite formatted, in bytes of the UTF-8 line.
struct ByteSpan {
    int start = 0;
    int length = 0;
    HighlightStyle style = HighlightStyle::Normal;
};

// srchilite formats by calling one Formatter per element name; each of ours
// records where its element was and what kind it is.
class SpanFormatter : public srchilite::Formatter
{
public:
    SpanFormatter(std::vector<ByteSpan> *sink, HighlightStyle style) : m_sink(sink), m_style(style) {}

    void format(const std::string &text, const srchilite::FormatterParams *params) override
    {
        if (params && params->start >= 0 && !text.empty())
            m_sink->push_back({params->start, int(text.size()), m_style});
    }

private:
    std::vector<ByteSpan> *m_sink;
    HighlightStyle m_style;
};

// Element names used by the .lang files Source-highlight ships.
const std::vector<std::pair<std::string, HighlightStyle>> &elementStyles()
{
    using S = HighlightStyle;
    static const std::vector<std::pair<std::string, HighlightStyle>> table = {
        {"keyword", S::Keyword},     {"type", S::Type},           {"usertype", S::Type},
        {"classname", S::Type},      {"string", S::String},       {"valquote", S::String},
        {"value", S::String},        {"regexp", S::Escape},       {"specialchar", S::Escape},
        {"comment", S::Comment},     {"todo", S::Todo},           {"number", S::Number},
        {"atom", S::Number},         {"costant", S::Number},      {"preproc", S::Preprocessor},
        {"function", S::Function},   {"predef_func", S::Function}, {"variable", S::Variable},
        {"predef_var", S::Variable}, {"key", S::Key},             {"keyquote", S::Key},
        {"property", S::Key},        {"selector", S::Key},        {"label", S::Key},
        {"symbol", S::Symbol},       {"cbracket", S::Symbol},     {"url", S::Url},
        {"newfile", S::Added},       {"oldfile", S::Removed},     {"difflines", S::DiffHeader},
    };
    return table;
}

// Canonical names (CodeLanguage.h) whose lang.map key is spelled differently.
std::string langMapKey(const QString &canonical)
{
    static const QHash<QString, QString> keys = {
        {u"bash"_s, u"sh"_s},       {u"typescript"_s, u"javascript"_s}, {u"rust"_s, u"rs"_s},
        {u"scss"_s, u"css"_s},      {u"batch"_s, u"bat"_s},            {u"protobuf"_s, u"proto"_s},
        {u"ocaml"_s, u"caml"_s},    {u"toml"_s, u"conf"_s},            {u"coffeescript"_s, u"coffee"_s},
        {u"qml"_s, u"javascript"_s}, {u"markdown"_s, QString()},       {u"text"_s, QString()},
    };
    return keys.value(canonical, canonical).toStdString();
}

// Walks a UTF-8 line once, turning the ascending byte offsets srchilite
// reports into UTF-16 offsets of the QString it came from.
class Utf16Offsets
{
public:
    explicit Utf16Offsets(const std::string &utf8) : m_utf8(utf8) {}

    int at(int byteOffset)
    {
        if (byteOffset < m_byte)
            m_byte = m_unit = 0;
        const int end = std::min<int>(byteOffset, int(m_utf8.size()));
        for (; m_byte < end; ++m_byte) {
            const auto c = static_cast<unsigned char>(m_utf8[std::size_t(m_byte)]);
            if ((c & 0xC0) != 0x80)
                m_unit += c >= 0xF0 ? 2 : 1; // four-byte sequences are surrogate pairs
        }
        return m_unit;
    }

private:
    const std::string &m_utf8;
    int m_byte = 0;
    int m_unit = 0;
};

} // namespace

struct SourceHighlightCodeHighlighter::Private {
    explicit Private(std::string dir) : dataDir(std::move(dir)), langMap(dataDir, "lang.map") {}

    std::string langFileFor(const QString &language);
    SourceHighlightLanguage *languageFor(const QString &language);
    SourceHighlightLanguage *load(const std::string &langFile);
    void appendSpans(const std::string &utf8, int lineLength, QList<HighlightSpan> &spans) const;

    std::string dataDir;
    srchilite::LangMap langMap;
    srchilite::RegexRuleFactory ruleFactory;
    srchilite::LangDefManager langDefs{&ruleFactory};
    std::vector<ByteSpan> byteSpans;
    srchilite::FormatterManager formatters{srchilite::FormatterPtr(new SpanFormatter(&byteSpans, HighlightStyle::Normal))};
    srchilite::FormatterParams params;
    std::map<std::string, std::unique_ptr<SourceHighlightLanguage>> byFile; // null: failed to load
    QHash<QString, SourceHighlightLanguage *> byName;
    std::array<QTextCharFormat, StyleCount> formats;
};

std::string SourceHighlightCodeHighlighter::Private::langFileFor(const QString &language)
{
    const std::string key = langMapKey(canonicalLanguage(language));
    if (key.empty())
        return {};
    std::string file;
    try {
        file = langMap.getMappedFileName(key);
    } catch (const std::exception &e) {
        qCWarning(lcHighlight) << "Source-highlight's lang.map could not be read:" << e.what();
        return {};
    }
    // nohilite.lang colours nothing; to the caller that is an unknown language.
    if (file.empty() || file == "nohilite.lang")
        return {};
    return file;
}

SourceHighlightLanguage *SourceHighlightCodeHighlighter::Private::languageFor(const QString &language)
{
    if (auto it = byName.constFind(language); it != byName.constEnd())
        return *it;
    if (byName.size() >= MaxRememberedNames)
        byName.clear();
    const std::string file = langFileFor(language);
    SourceHighlightLanguage *loaded = file.empty() ? nullptr : load(file);
    byName.insert(language, loaded);
    return loaded;
}

SourceHighlightLanguage *SourceHighlightCodeHighlighter::Private::load(const std::string &langFile)
{
    if (auto it = byFile.find(langFile); it != byFile.end())
        return it->second.get();
    std::unique_ptr<SourceHighlightLanguage> language;
    try {
        srchilite::HighlightStatePtr mainState = langDefs.getHighlightState(dataDir, langFile);
        language = std::make_unique<SourceHighlightLanguage>(mainState, &formatters, &params);
    } catch (const std::exception &e) {
        qCWarning(lcHighlight) << "Source-highlight could not load" << langFile.c_str() << ":" << e.what();
    } catch (...) {
        qCWarning(lcHighlight) << "Source-highlight could not load" << langFile.c_str();
    }
    return byFile.emplace(langFile, std::move(language)).first->second.get();
}

void SourceHighlightCodeHighlighter::Private::appendSpans(const std::string &utf8, int lineLength,
                                                          QList<HighlightSpan> &spans) const
{
    Utf16Offsets offsets(utf8);
    const qsizetype first = spans.size();
    HighlightStyle lastStyle = HighlightStyle::Normal;
    for (const ByteSpan &piece : byteSpans) {
        if (piece.style == HighlightStyle::Normal)
            continue;
        const int start = std::min(offsets.at(piece.start), lineLength);
        const int end = std::min(offsets.at(piece.start + piece.length), lineLength);
        if (end <= start)
            continue;
        // Unoptimized srchilite reports "/*", the text and "*/" apart: join them.
        if (spans.size() > first && lastStyle == piece.style && spans.last().start + spans.last().length == start) {
            spans.last().length = end - spans.last().start;
            continue;
        }
        spans.append({start, end - start, formats[std::size_t(piece.style)]});
        lastStyle = piece.style;
    }
}

std::unique_ptr<SourceHighlightCodeHighlighter> SourceHighlightCodeHighlighter::tryCreate()
{
    std::string dataDir;
    try {
        dataDir = srchilite::Settings::retrieveDataDir();
    } catch (const std::exception &e) {
        qCWarning(lcHighlight) << "Source-highlight's data folder is unknown:" << e.what();
        return nullptr;
    }
    const QString mapFile = QDir(QString::fromStdString(dataDir)).filePath(u"lang.map"_s);
    if (!QFileInfo(mapFile).isReadable()) {
        qCWarning(lcHighlight) << "Source-highlight is installed without its language map" << mapFile;
        return nullptr;
    }
    auto d = std::make_unique<Private>(dataDir);
    try {
        d->langMap.open();
    } catch (const std::exception &e) {
        qCWarning(lcHighlight) << "Source-highlight's language map" << mapFile << "is broken:" << e.what();
        return nullptr;
    }
    for (const auto &[element, style] : elementStyles())
        d->formatters.addFormatter(element, srchilite::FormatterPtr(new SpanFormatter(&d->byteSpans, style)));
    std::unique_ptr<SourceHighlightCodeHighlighter> highlighter(new SourceHighlightCodeHighlighter(std::move(d)));
    highlighter->setDark(false);
    qCInfo(lcHighlight) << "Highlighting code with GNU Source-highlight from" << dataDir.c_str();
    return highlighter;
}

SourceHighlightCodeHighlighter::SourceHighlightCodeHighlighter(std::unique_ptr<Private> d) : m_d(std::move(d)) {}

SourceHighlightCodeHighlighter::~SourceHighlightCodeHighlighter() = default;

QString SourceHighlightCodeHighlighter::backendName() const
{
    return u"GNU Source-highlight"_s;
}

bool SourceHighlightCodeHighlighter::knowsLanguage(const QString &language) const
{
    const std::string file = m_d->langFileFor(language);
    return !file.empty() && QFileInfo::exists(QDir(QString::fromStdString(m_d->dataDir)).filePath(QString::fromStdString(file)));
}

int SourceHighlightCodeHighlighter::highlightLine(const QString &language, const QString &line, int state,
                                                  QList<HighlightSpan> &spans)
{
    SourceHighlightLanguage *highlighter = m_d->languageFor(language);
    if (!highlighter)
        return 0;
    if (line.size() > MaxHighlightedLineLength)
        return highlighter->validState(state);
    const std::string utf8 = line.toStdString();
    m_d->byteSpans.clear();
    int after = 0;
    try {
        after = highlighter->highlight(utf8, state);
    } catch (const std::exception &e) {
        qCWarning(lcHighlight) << "Source-highlight failed on a line of" << language << ":" << e.what();
        return 0;
    } catch (...) {
        qCWarning(lcHighlight) << "Source-highlight failed on a line of" << language;
        return 0;
    }
    m_d->appendSpans(utf8, int(line.size()), spans);
    return after;
}

void SourceHighlightCodeHighlighter::setDark(bool dark)
{
    for (std::size_t style = 0; style < StyleCount; ++style)
        m_d->formats[style] = highlightFormat(HighlightStyle(style), dark);
}

} // namespace qcode

#endif
