#include "BashSyntaxTree.h"

extern "C" const TSLanguage *tree_sitter_bash(void);

namespace qcode {

namespace {

// Past these the line is not parsed at all, and so judged as a whole: a
// command line for a person to read is far shorter.
constexpr qsizetype MaxSourceBytes = 1 << 20;
constexpr uint64_t ParseTimeoutMicros = 2'000'000;
// The runtime (0.20) frees a tree thousands of levels deep wrongly; no line
// a person reads nests like that.
constexpr qsizetype MaxOpenings = 1000;

struct ParserDeleter {
    void operator()(TSParser *parser) const { ts_parser_delete(parser); }
};

} // namespace

BashSyntaxTree::BashSyntaxTree(const QString &line)
    : m_source(line.toUtf8())
{
    if (m_source.size() > MaxSourceBytes)
        return;
    const qsizetype openings = m_source.count('(') + m_source.count('{') + m_source.count('[') + m_source.count('`');
    if (openings > MaxOpenings)
        return;
    std::unique_ptr<TSParser, ParserDeleter> parser(ts_parser_new());
    if (!ts_parser_set_language(parser.get(), tree_sitter_bash()))
        return;
    ts_parser_set_timeout_micros(parser.get(), ParseTimeoutMicros);
    m_tree.reset(ts_parser_parse_string(parser.get(), nullptr, m_source.constData(), uint32_t(m_source.size())));
}

bool BashSyntaxTree::languageLoads()
{
    std::unique_ptr<TSParser, ParserDeleter> parser(ts_parser_new());
    return ts_parser_set_language(parser.get(), tree_sitter_bash());
}

TSNode BashSyntaxTree::root() const
{
    return ts_tree_root_node(m_tree.get());
}

QString BashSyntaxTree::text(TSNode node) const
{
    return text(ts_node_start_byte(node), ts_node_end_byte(node));
}

QString BashSyntaxTree::text(uint32_t start, uint32_t end) const
{
    if (end <= start || end > uint32_t(m_source.size()))
        return {};
    return QString::fromUtf8(m_source.constData() + start, end - start);
}

} // namespace qcode
