#include "YamlReader.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QRegularExpression>

#include <yaml-cpp/depthguard.h>
#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/exceptions.h>
#include <yaml-cpp/mark.h>
#include <yaml-cpp/parser.h>

#include <algorithm>
#include <cstring>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "OpenCodeYamlRepair.h"

using namespace Qt::StringLiterals;

namespace qcode {

namespace {

// Nesting deeper than any agent file needs is refused, so a crafted file
// cannot exhaust the stack (yaml-cpp itself recurses up to 2000 levels).
constexpr int maxDepth = 64;

// Thrown from the event handler through yaml-cpp and caught by
// YamlReader::parse: any failure ends the whole read.
struct ReadFailure {
    int line; // 0-based in the text
    QString message;
};

// YAML 1.2 core schema for a plain (unquoted) scalar.
QJsonValue resolvePlain(const QString &text)
{
    if (text.isEmpty() || text == "~"_L1 || text == "null"_L1 || text == "Null"_L1 || text == "NULL"_L1)
        return QJsonValue::Null;
    if (text == "true"_L1 || text == "True"_L1 || text == "TRUE"_L1)
        return true;
    if (text == "false"_L1 || text == "False"_L1 || text == "FALSE"_L1)
        return false;
    static const QRegularExpression integer(u"\\A[-+]?[0-9]+\\z"_s);
    static const QRegularExpression hex(u"\\A0x[0-9a-fA-F]+\\z"_s);
    static const QRegularExpression octal(u"\\A0o[0-7]+\\z"_s);
    static const QRegularExpression real(u"\\A[-+]?(\\.[0-9]+|[0-9]+(\\.[0-9]*)?)([eE][-+]?[0-9]+)?\\z"_s);
    bool ok = false;
    if (integer.match(text).hasMatch() || real.match(text).hasMatch()) {
        const double value = text.toDouble(&ok);
        if (ok)
            return value;
    }
    if (hex.match(text).hasMatch()) {
        const qlonglong value = text.mid(2).toLongLong(&ok, 16);
        if (ok)
            return double(value);
    }
    if (octal.match(text).hasMatch()) {
        const qlonglong value = text.mid(2).toLongLong(&ok, 8);
        if (ok)
            return double(value);
    }
    return text;
}

// The text as yaml-cpp reads it (UTF-8 bytes), by line, so marks can be
// looked up where yaml-cpp is more lenient than YAML.
class SourceLines
{
public:
    explicit SourceLines(const std::string &text) : m_text(text)
    {
        m_starts.push_back(0);
        for (size_t i = 0; i < text.size(); ++i) {
            if (text[i] == '\n')
                m_starts.push_back(i + 1);
        }
    }

    int lastLine() const { return int(m_starts.size()) - 1; }

    std::string_view line(int number) const
    {
        if (number < 0 || number > lastLine())
            return {};
        const size_t start = m_starts[size_t(number)];
        const size_t end = number == lastLine() ? m_text.size() : m_starts[size_t(number) + 1] - 1;
        return std::string_view(m_text).substr(start, end - start);
    }

    // Whether the quoted scalar that starts at `mark` has its closing quote;
    // yaml-cpp ends an unclosed one silently at the end of the text.
    bool quoteIsClosed(const YAML::Mark &mark) const
    {
        if (mark.line < 0 || mark.line > lastLine())
            return true;
        const size_t open = m_starts[size_t(mark.line)] + size_t(mark.column);
        if (open >= m_text.size() || (m_text[open] != '"' && m_text[open] != '\''))
            return true;
        const char quote = m_text[open];
        for (size_t i = open + 1; i < m_text.size(); ++i) {
            if (quote == '"' && m_text[i] == '\\')
                ++i;
            else if (m_text[i] == quote && quote == '\'' && i + 1 < m_text.size() && m_text[i + 1] == '\'')
                ++i;
            else if (m_text[i] == quote)
                return true;
        }
        return false;
    }

private:
    const std::string &m_text;
    std::vector<size_t> m_starts; // byte offset of each line
};

// Builds JSON from yaml-cpp's parse events, recording each key's line and
// the order keys were written in.
class JsonBuilder final : public YAML::EventHandler
{
public:
    JsonBuilder(const SourceLines &lines, const QString &file, int firstLine)
        : m_lines(lines), m_file(file), m_firstLine(firstLine), m_map(file)
    {
    }

    const QJsonValue &root() const { return m_root; }
    const ConfigSourceMap &sourceMap() const { return m_map; }

    void OnDocumentStart(const YAML::Mark &mark) override
    {
        // yaml-cpp starts a new document where a line dedents below the
        // first one; a front matter is one document.
        if (m_documents++ > 0)
            throw ReadFailure{mark.line, YamlReader::tr("this line does not fit the structure above it")};
    }
    void OnDocumentEnd() override {}

    void OnAnchor(const YAML::Mark &mark, const std::string &) override { refuseAnchors(mark); }
    void OnAlias(const YAML::Mark &mark, YAML::anchor_t) override { refuseAnchors(mark); }

    void OnNull(const YAML::Mark &mark, YAML::anchor_t anchor) override
    {
        if (anchor != YAML::NullAnchor)
            refuseAnchors(mark);
        add(mark, QJsonValue::Null, std::nullopt);
    }

    void OnScalar(const YAML::Mark &mark, const std::string &tag, YAML::anchor_t anchor,
                  const std::string &value) override
    {
        if (anchor != YAML::NullAnchor)
            refuseAnchors(mark);
        const bool plain = tag == "?";
        if (!plain && tag != "!")
            refuseAnchors(mark);
        if (!plain && !m_lines.quoteIsClosed(mark))
            throw ReadFailure{mark.line, YamlReader::tr("a quoted value is never closed")};
        const QString text = QString::fromStdString(value);
        add(mark, plain ? resolvePlain(text) : QJsonValue(text), Key{text, plain});
    }

    void OnSequenceStart(const YAML::Mark &mark, const std::string &tag, YAML::anchor_t anchor,
                         YAML::EmitterStyle::value style) override
    {
        open(mark, tag, anchor, style, false);
    }
    void OnSequenceEnd() override { close(); }

    void OnMapStart(const YAML::Mark &mark, const std::string &tag, YAML::anchor_t anchor,
                    YAML::EmitterStyle::value style) override
    {
        open(mark, tag, anchor, style, true);
    }
    void OnMapEnd() override { close(); }

    // A yaml-cpp error as a sentence, at the line that explains it best.
    ReadFailure explain(const YAML::Exception &error) const
    {
        const int line = error.mark.line >= 0 ? std::min(error.mark.line, m_lines.lastLine()) : m_lines.lastLine();
        const std::string &message = error.msg;
        const std::string_view text = m_lines.line(line);
        const size_t indentEnd = text.find_first_not_of(" \t");
        if (text.substr(0, indentEnd).find('\t') != std::string_view::npos)
            return {line, YamlReader::tr("a tab is used for indentation; YAML indents with spaces")};
        if (message == YAML::ErrorMsg::END_OF_SEQ_FLOW || message == YAML::ErrorMsg::END_OF_MAP_FLOW)
            return {innermostFlowLine(line), YamlReader::tr("a [ or { is never closed")};
        if (message.rfind(YAML::ErrorMsg::INVALID_ESCAPE, 0) == 0) {
            const QString escape = QString::fromStdString(message.substr(std::strlen(YAML::ErrorMsg::INVALID_ESCAPE)));
            return {line, YamlReader::tr("an unknown escape \\%1 in a double-quoted value").arg(escape)};
        }
        if (message == YAML::ErrorMsg::MAP_VALUE)
            return {line, YamlReader::tr("\": \" cannot stand here: the line is indented too far, or a value "
                                         "that contains \": \" needs quotes")};
        if (message == YAML::ErrorMsg::END_OF_MAP || message == YAML::ErrorMsg::END_OF_SEQ
            || message == YAML::ErrorMsg::BLOCK_ENTRY)
            return {line, YamlReader::tr("this line does not fit the structure above it")};
        if (message == YAML::ErrorMsg::ALIAS_NOT_FOUND || message == YAML::ErrorMsg::ANCHOR_NOT_FOUND
            || message == YAML::ErrorMsg::UNKNOWN_ANCHOR)
            return {line, anchorsRefused()};
        if (dynamic_cast<const YAML::DeepRecursion *>(&error))
            return {line, nestedTooDeeply()};
        return {line, YamlReader::tr("this is not valid YAML (%1)").arg(QString::fromStdString(message))};
    }

private:
    struct Key {
        QString text;
        bool plain = false;
    };

    struct Frame {
        bool isMap = false;
        bool isFlow = false;
        int line = 0;
        QStringList path;
        QJsonObject object;
        QJsonArray array;
        std::optional<QString> key; // read, its value not yet
    };

    static QString anchorsRefused()
    {
        return YamlReader::tr("YAML anchors (&), aliases (*) and tags (!) are not supported in front matter; "
                              "put a text that starts with one of them in quotes");
    }
    static QString nestedTooDeeply() { return YamlReader::tr("the values are nested too deeply"); }

    [[noreturn]] static void refuseAnchors(const YAML::Mark &mark) { throw ReadFailure{mark.line, anchorsRefused()}; }

    void open(const YAML::Mark &mark, const std::string &tag, YAML::anchor_t anchor, YAML::EmitterStyle::value style,
              bool isMap)
    {
        if (anchor != YAML::NullAnchor || (tag != "?" && tag != "!"))
            refuseAnchors(mark);
        if (m_stack.size() >= size_t(maxDepth))
            throw ReadFailure{mark.line, nestedTooDeeply()};
        QStringList path;
        if (!m_stack.empty()) {
            const Frame &parent = m_stack.back();
            if (parent.isMap && !parent.key)
                throw ReadFailure{mark.line, YamlReader::tr("a key must be a plain text, not a list or a map")};
            path = parent.path
                + QStringList{parent.isMap ? *parent.key : QString::number(parent.array.size())};
        }
        Frame frame;
        frame.isMap = isMap;
        frame.isFlow = style == YAML::EmitterStyle::Flow;
        frame.line = mark.line;
        frame.path = std::move(path);
        m_stack.push_back(std::move(frame));
    }

    void close()
    {
        Frame frame = std::move(m_stack.back());
        m_stack.pop_back();
        const YAML::Mark mark; // collections are never keys
        add(mark, frame.isMap ? QJsonValue(frame.object) : QJsonValue(frame.array), std::nullopt);
    }

    void add(const YAML::Mark &mark, const QJsonValue &value, const std::optional<Key> &key)
    {
        if (m_stack.empty()) {
            m_root = value;
            return;
        }
        Frame &top = m_stack.back();
        if (!top.isMap) {
            top.array.append(value);
            return;
        }
        if (top.key) {
            top.object.insert(*top.key, value);
            top.key.reset();
            return;
        }
        if (!key)
            throw ReadFailure{mark.line, YamlReader::tr("a key must be a plain text")};
        if (top.object.contains(key->text))
            throw ReadFailure{mark.line, YamlReader::tr("the key \"%1\" is given twice").arg(key->text)};
        if (key->plain && !top.isFlow)
            requireColonAfter(mark, key->text);
        m_map.recordKey(top.path, key->text, {m_file, m_firstLine + mark.line});
        top.key = key->text;
    }

    // yaml-cpp takes a line of plain words in a block map for a key without
    // a value; YAML wants its ":".
    void requireColonAfter(const YAML::Mark &mark, const QString &key) const
    {
        const std::string_view line = m_lines.line(mark.line);
        const std::string written = key.toStdString();
        const size_t column = size_t(std::max(mark.column, 0));
        if (column > line.size() || line.substr(column, written.size()) != written)
            return; // written in a way that cannot be compared (never seen)
        size_t i = column + written.size();
        while (i < line.size() && (line[i] == ' ' || line[i] == '\t'))
            ++i;
        if (i < line.size() && line[i] == ':')
            return;
        const std::string_view before = line.substr(0, column);
        const size_t last = before.find_last_not_of(" \t");
        if (last != std::string_view::npos && before[last] == '?')
            return; // "? key" has its ":" on a line of its own
        throw ReadFailure{mark.line, YamlReader::tr("expected a \"key: value\" line, found \"%1\"").arg(key)};
    }

    int innermostFlowLine(int fallback) const
    {
        for (auto it = m_stack.rbegin(); it != m_stack.rend(); ++it) {
            if (it->isFlow)
                return it->line;
        }
        return fallback;
    }

    const SourceLines &m_lines;
    const QString &m_file;
    const int m_firstLine;
    ConfigSourceMap m_map;
    QJsonValue m_root = QJsonValue::Null;
    std::vector<Frame> m_stack;
    int m_documents = 0;
};

Result<YamlDocument> read(const QString &text, const QString &fileName, int firstLine)
{
    const std::string utf8 = text.toStdString();
    const SourceLines lines(utf8);
    JsonBuilder builder(lines, fileName, firstLine);
    const auto failure = [&](const ReadFailure &f) {
        return Error{u"%1:%2: %3"_s.arg(fileName).arg(firstLine + f.line).arg(f.message)};
    };
    try {
        std::istringstream in(utf8);
        YAML::Parser parser(in);
        while (parser.HandleNextDocument(builder)) {
        }
    } catch (const ReadFailure &f) {
        return failure(f);
    } catch (const YAML::Exception &e) {
        return failure(builder.explain(e));
    }
    return YamlDocument{builder.root(), builder.sourceMap()};
}

} // namespace

Result<YamlDocument> YamlReader::parse(const QString &text, const QString &fileName, int firstLine)
{
    Result<YamlDocument> strict = read(text, fileName, firstLine);
    if (strict)
        return strict;
    const QString repaired = OpenCodeYamlRepair::repair(text);
    if (repaired == text)
        return strict;
    Result<YamlDocument> lenient = read(repaired, fileName, firstLine);
    return lenient ? lenient : strict;
}

} // namespace qcode
