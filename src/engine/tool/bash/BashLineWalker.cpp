#include "BashLineWalker.h"

#include <QRegularExpression>
#include <QSet>

#include <algorithm>
#include <cstring>

using namespace Qt::StringLiterals;

namespace qcode {

namespace {

// Deeper than this a line is judged whole; the walk recurses.
constexpr int MaxDepth = 200;

bool is(TSNode node, const char *type)
{
    return std::strcmp(ts_node_type(node), type) == 0;
}

QString typeOf(TSNode node)
{
    return QString::fromLatin1(ts_node_type(node));
}

QList<TSNode> childrenOf(TSNode node)
{
    QList<TSNode> children;
    const uint32_t count = ts_node_child_count(node);
    children.reserve(count);
    for (uint32_t k = 0; k < count; ++k)
        children.append(ts_node_child(node, k));
    return children;
}

bool isIdentifier(const QString &name)
{
    static const QRegularExpression identifier(u"^[A-Za-z_][A-Za-z0-9_]*$"_s);
    return identifier.match(name).hasMatch();
}

bool isDigits(const QString &text)
{
    return !text.isEmpty() && std::all_of(text.cbegin(), text.cend(), [](QChar c) { return c.isDigit(); });
}

// Variables that change which program a later word runs, how words are
// split, or that bash evaluates as code.
bool isDangerousVariable(const QString &name)
{
    static const QSet<QString> names{
        u"PATH"_s,         u"BASH_ENV"_s,     u"ENV"_s,        u"IFS"_s,       u"PS0"_s,
        u"PS1"_s,          u"PS2"_s,          u"PS3"_s,        u"PS4"_s,       u"PROMPT_COMMAND"_s,
        u"SHELLOPTS"_s,    u"BASHOPTS"_s,     u"BASH_LOADABLES_PATH"_s,        u"BASH_XTRACEFD"_s,
        u"BASH_CMDS"_s,    u"BASH_ALIASES"_s, u"BASH_COMPAT"_s, u"GLOBIGNORE"_s, u"EXECIGNORE"_s,
        u"HOME"_s,         u"CDPATH"_s,       u"POSIXLY_CORRECT"_s, u"FUNCNEST"_s, u"INPUTRC"_s,
        u"HISTFILE"_s,     u"TMPDIR"_s,
    };
    return names.contains(name) || name.startsWith("LD_"_L1) || name.startsWith("DYLD_"_L1)
           || name.startsWith("BASH_FUNC_"_L1);
}

// Commands whose arguments are code this checker does not read, or that
// change how bash reads what follows.
bool runsCodeItCannotSee(const QString &name)
{
    static const QSet<QString> names{
        u"eval"_s,   u"source"_s,  u"."_s,        u"exec"_s,    u"alias"_s,    u"bind"_s,
        u"enable"_s, u"fc"_s,      u"coproc"_s,   u"command_not_found_handle"_s, u"hash"_s,
        u"shopt"_s,  u"compgen"_s, u"complete"_s, u"history"_s, u"watch"_s,    u"su"_s,
        u"runuser"_s, u"pkexec"_s, u"flock"_s,    u"script"_s,  u"parallel"_s, u"chroot"_s,
        u"strace"_s, u"ltrace"_s,  u"valgrind"_s, u"gdb"_s,     u"unbuffer"_s, u"taskset"_s,
        u"chrt"_s,   u"numactl"_s, u"prlimit"_s,  u"systemd-run"_s, u"nsenter"_s, u"unshare"_s,
        u"busybox"_s, u"expect"_s, u"firejail"_s, u"faketime"_s, u"proxychains"_s, u"torsocks"_s,
        u"caller"_s, u"ulimit"_s,
    };
    return names.contains(name);
}

bool isShell(const QString &name)
{
    static const QSet<QString> names{u"bash"_s, u"sh"_s,  u"zsh"_s, u"dash"_s, u"ksh"_s,  u"mksh"_s,
                                     u"ash"_s,  u"fish"_s, u"csh"_s, u"tcsh"_s, u"rbash"_s, u"yash"_s};
    return names.contains(name);
}

bool isReservedWord(const QString &name)
{
    static const QSet<QString> names{u"if"_s,   u"then"_s, u"else"_s,     u"elif"_s,   u"fi"_s,   u"do"_s,
                                     u"done"_s, u"case"_s, u"esac"_s,     u"while"_s,  u"until"_s, u"for"_s,
                                     u"in"_s,   u"select"_s, u"function"_s, u"{"_s,     u"}"_s,    u"[["_s,
                                     u"]]"_s,   u"!"_s,    u"(("_s,       u"))"_s};
    return names.contains(name);
}

QString baseName(const QString &path)
{
    const qsizetype slash = path.lastIndexOf(u'/');
    return slash < 0 ? path : path.mid(slash + 1);
}

// Literal text that bash would still expand: an unescaped ` or a $ that
// starts an expansion. In an unquoted word also a quote or an operator
// character, which the grammar cannot have meant as part of the word.
bool literalIsNotLiteral(const QString &text, bool unquotedWord)
{
    static const QString expansionStarts = u"{([@*#?$!-'\"`_"_s;
    static const QString operators = u"'\";&|<>() \t\n"_s;
    for (qsizetype k = 0; k < text.size(); ++k) {
        const QChar c = text.at(k);
        if (c == u'\\') {
            ++k;
            continue;
        }
        if (c == u'`')
            return true;
        if (c == u'$' && k + 1 < text.size()) {
            const QChar next = text.at(k + 1);
            if (next.isLetterOrNumber() || expansionStarts.contains(next))
                return true;
        }
        if (unquotedWord && operators.contains(c))
            return true;
    }
    return false;
}

// An unquoted word after quote removal; `expands` when a glob, brace or
// tilde is left for bash to expand.
std::optional<QString> unquoteWord(const QString &text, bool &expands)
{
    QString value;
    for (qsizetype k = 0; k < text.size(); ++k) {
        const QChar c = text.at(k);
        if (c == u'\\') {
            if (k + 1 < text.size() && text.at(k + 1) != u'\n')
                value.append(text.at(k + 1));
            ++k;
            continue;
        }
        if (c == u'$' || c == u'`' || c == u'\'' || c == u'"')
            return std::nullopt;
        const bool tilde = c == u'~' && (k == 0 || text.at(k - 1) == u'=' || text.at(k - 1) == u':');
        if (c == u'*' || c == u'?' || c == u'[' || tilde)
            expands = true;
        value.append(c);
    }
    return value;
}

QString unquoteDouble(const QString &text)
{
    QString value;
    for (qsizetype k = 0; k < text.size(); ++k) {
        const QChar c = text.at(k);
        if (c == u'\\' && k + 1 < text.size()) {
            const QChar next = text.at(k + 1);
            if (next == u'\n') {
                ++k;
                continue;
            }
            if (next == u'$' || next == u'`' || next == u'"' || next == u'\\') {
                value.append(next);
                ++k;
                continue;
            }
        }
        value.append(c);
    }
    return value;
}

bool isWordNode(TSNode node)
{
    static const QSet<QString> types{u"word"_s,          u"string"_s,         u"raw_string"_s,
                                     u"ansi_c_string"_s, u"translated_string"_s, u"concatenation"_s,
                                     u"simple_expansion"_s, u"expansion"_s,   u"command_substitution"_s,
                                     u"process_substitution"_s, u"arithmetic_expansion"_s, u"number"_s,
                                     u"brace_expression"_s, u"extglob_pattern"_s};
    return ts_node_is_named(node) && types.contains(typeOf(node));
}

} // namespace

BashLineWalker::BashLineWalker(const BashSyntaxTree &tree, BashLineAnalysis &out)
    : m_tree(tree)
    , m_out(out)
{
}

void BashLineWalker::run()
{
    if (!m_tree.isValid()) {
        opaque(u"the line is too long, too deeply nested or too slow to parse"_s);
        return;
    }
    const TSNode root = m_tree.root();
    if (ts_node_has_error(root)) {
        opaque(u"the line does not parse as bash"_s);
        return;
    }
    checkGaps();
    visit(root, Quoting::None, 0);
}

void BashLineWalker::opaque(const QString &reason)
{
    if (m_out.m_opaqueReason.isEmpty())
        m_out.m_opaqueReason = reason;
}

// Text between the grammar's tokens is what it skipped. Outside quotes it
// may only be blanks and line continuations after a blank: anything else
// (a carriage return before a comment, a continuation inside a word) is
// text bash reads and the grammar did not.
void BashLineWalker::checkGaps()
{
    QList<std::pair<uint32_t, uint32_t>> leaves;
    QList<TSNode> pending{m_tree.root()};
    while (!pending.isEmpty()) {
        const TSNode node = pending.takeLast();
        const uint32_t count = ts_node_child_count(node);
        if (count == 0) {
            leaves.append({ts_node_start_byte(node), ts_node_end_byte(node)});
            continue;
        }
        for (uint32_t k = 0; k < count; ++k)
            pending.append(ts_node_child(node, k));
    }
    std::sort(leaves.begin(), leaves.end());
    const QByteArray &source = m_tree.source();
    uint32_t covered = 0;
    const auto quotingAt = [&](uint32_t at) {
        const TSNode around = ts_node_descendant_for_byte_range(m_tree.root(), at, at + 1);
        for (TSNode up = around; !ts_node_is_null(up); up = ts_node_parent(up)) {
            if (is(up, "command_substitution") || is(up, "process_substitution"))
                return Quoting::None;
            // Body text the grammar left uncovered is judged by what bash
            // does with it: scanned for expansions.
            if (is(up, "string") || is(up, "translated_string") || is(up, "heredoc_body"))
                return Quoting::Double;
        }
        return Quoting::None;
    };
    const auto checkGap = [&](uint32_t start, uint32_t end) {
        uint32_t runStart = start;
        while (runStart < end && !stopped()) {
            const Quoting quoting = quotingAt(runStart);
            uint32_t runEnd = runStart + 1;
            while (runEnd < end && quotingAt(runEnd) == quoting)
                ++runEnd;
            checkGapRun(runStart, runEnd, quoting);
            runStart = runEnd;
        }
    };
    for (const auto &[start, end] : leaves) {
        if (start > covered)
            checkGap(covered, start);
        covered = std::max(covered, end);
    }
    checkGap(covered, uint32_t(source.size()));
}

void BashLineWalker::checkGapRun(uint32_t start, uint32_t end, Quoting quoting)
{
    const QByteArray &source = m_tree.source();
    const QString gap = m_tree.text(start, end);
    if (quoting == Quoting::Double) {
        if (literalIsNotLiteral(gap, false))
            opaque(u"text the grammar skipped would be expanded by bash"_s);
        return;
    }
    for (uint32_t k = start; k < end; ++k) {
        const char c = source.at(k);
        if (c == ' ' || c == '\t' || c == '\n')
            continue;
        const bool continuation = c == '\\' && k + 1 < end && source.at(k + 1) == '\n' && k > 0
                                  && (source.at(k - 1) == ' ' || source.at(k - 1) == '\t');
        if (continuation) {
            ++k;
            continue;
        }
        opaque(u"the line has text the grammar skipped (%1)"_s.arg(gap.simplified().isEmpty() ? u"control characters"_s : gap));
        return;
    }
}

void BashLineWalker::visit(TSNode node, Quoting quoting, int depth)
{
    if (stopped())
        return;
    if (depth > MaxDepth) {
        opaque(u"the line is nested too deeply"_s);
        return;
    }
    if (ts_node_is_missing(node) || is(node, "ERROR")) {
        opaque(u"the line does not parse as bash"_s);
        return;
    }
    if (!ts_node_is_named(node))
        return; // keywords and operators
    const QString type = typeOf(node);
    static const QSet<QString> structure{
        u"program"_s,       u"list"_s,         u"pipeline"_s,     u"compound_statement"_s, u"subshell"_s,
        u"do_group"_s,      u"redirected_statement"_s, u"negated_command"_s, u"if_statement"_s,
        u"elif_clause"_s,   u"else_clause"_s,  u"while_statement"_s, u"case_statement"_s,  u"case_item"_s,
        u"concatenation"_s, u"simple_expansion"_s, u"brace_expression"_s, u"herestring_redirect"_s,
    };
    static const QSet<QString> inert{u"variable_name"_s, u"special_variable_name"_s, u"file_descriptor"_s,
                                     u"test_operator"_s, u"heredoc_start"_s, u"heredoc_end"_s};
    if (structure.contains(type)) {
        visitChildren(node, quoting, depth);
    } else if (inert.contains(type)) {
        return;
    } else if (type == "command"_L1) {
        visitCommand(node, depth);
    } else if (type == "declaration_command"_L1 || type == "unset_command"_L1) {
        visitDeclaration(node, depth);
    } else if (type == "variable_assignments"_L1) {
        QList<Word> none;
        record(node, none, true);
        visitChildren(node, quoting, depth);
    } else if (type == "variable_assignment"_L1) {
        const TSNode parent = ts_node_parent(node);
        if (!is(parent, "variable_assignments") && !is(parent, "command") && !is(parent, "declaration_command"))
            record(node, {}, true);
        visitAssignment(node, quoting, depth);
    } else if (type == "for_statement"_L1) {
        for (const TSNode &child : childrenOf(node)) {
            if (is(child, "variable_name"))
                checkVariableName(text(child));
        }
        visitChildren(node, quoting, depth);
    } else if (type == "c_style_for_statement"_L1) {
        for (const TSNode &child : childrenOf(node)) {
            if (is(child, "do_group") || is(child, "compound_statement"))
                visit(child, Quoting::None, depth + 1);
            else if (ts_node_is_named(child))
                visitArithmetic(child, depth + 1);
        }
    } else if (type == "function_definition"_L1) {
        opaque(u"it defines a function, and any later word could call it"_s);
    } else if (type == "test_command"_L1) {
        visitTest(node, depth);
    } else if (type == "file_redirect"_L1) {
        visitRedirect(node, depth);
    } else if (type == "heredoc_redirect"_L1) {
        visitHeredoc(node, depth);
    } else if (type == "string"_L1 || type == "translated_string"_L1) {
        visitChildren(node, quoting == Quoting::Inert ? Quoting::Inert : Quoting::Double, depth);
    } else if (type == "command_substitution"_L1 || type == "process_substitution"_L1) {
        checkBackquotes(node);
        visitChildren(node, Quoting::None, depth);
    } else if (type == "expansion"_L1) {
        visitExpansion(node, quoting, depth);
    } else if (type == "arithmetic_expansion"_L1) {
        for (const TSNode &child : childrenOf(node)) {
            if (ts_node_is_named(child))
                visitArithmetic(child, depth + 1);
        }
    } else if (type == "array"_L1) {
        visitArray(node, depth);
    } else if (type == "subscript"_L1) {
        checkSubscript(node, false);
    } else if (type == "comment"_L1) {
        checkComment(node);
    } else if (type == "word"_L1 || type == "number"_L1 || type == "string_content"_L1
               || type == "raw_string"_L1 || type == "ansi_c_string"_L1 || type == "regex"_L1
               || type == "extglob_pattern"_L1 || type == "heredoc_content"_L1 || type == "heredoc_body"_L1) {
        if (ts_node_child_count(node) > 0)
            visitChildren(node, quoting, depth);
        else
            checkLiteral(node, quoting);
    } else {
        opaque(u"it uses %1, which the checker does not know"_s.arg(type));
    }
}

void BashLineWalker::visitChildren(TSNode node, Quoting quoting, int depth)
{
    for (const TSNode &child : childrenOf(node))
        visit(child, quoting, depth + 1);
}

void BashLineWalker::checkLiteral(TSNode node, Quoting quoting)
{
    if (quoting == Quoting::Inert)
        return;
    // Quotes the grammar saw where bash sees none ('…' inside "…" or in a
    // here-doc body) protect nothing: their text is scanned like the rest.
    const bool quotedByItself = is(node, "raw_string") || is(node, "ansi_c_string");
    if (quotedByItself && quoting == Quoting::None)
        return;
    const bool unquotedWord = is(node, "word") && quoting == Quoting::None;
    if (literalIsNotLiteral(text(node), unquotedWord))
        opaque(u"bash would expand text the grammar reads as literal (%1)"_s.arg(text(node)));
}

// Inside `…` bash removes the backslash of \$, \` and \\ before it parses
// the command, so escaped expansions there run; the grammar reads them as
// escaped.
void BashLineWalker::checkBackquotes(TSNode node)
{
    const QString raw = text(node);
    if (!raw.startsWith(u'`') && !raw.startsWith("$`"_L1))
        return;
    for (qsizetype k = raw.indexOf(u'`') + 1; k + 1 < raw.size(); ++k) {
        if (raw.at(k) != u'\\')
            continue;
        const QChar next = raw.at(k + 1);
        if (next == u'$' || next == u'`' || next == u'\\') {
            opaque(u"an escaped $, ` or \\ inside `…`, which bash unescapes before it runs the command"_s);
            return;
        }
        ++k;
    }
}

void BashLineWalker::checkComment(TSNode node)
{
    const uint32_t start = ts_node_start_byte(node);
    if (start == 0)
        return;
    const char before = m_tree.source().at(start - 1);
    if (!std::strchr(" \t\n;&|()<>", before))
        opaque(u"a # that bash does not read as a comment"_s);
}

void BashLineWalker::visitCommand(TSNode node, int depth)
{
    // The command comes before those of its substitutions.
    const qsizetype at = m_out.m_commands.size();
    QList<Word> words;
    bool named = false;
    bool dollarBefore = false;
    for (const TSNode &child : childrenOf(node)) {
        if (stopped())
            return;
        if (is(child, "variable_assignment")) {
            visitAssignment(child, Quoting::None, depth + 1);
            continue;
        }
        if (is(child, "file_redirect") || is(child, "heredoc_redirect") || is(child, "herestring_redirect")) {
            visit(child, Quoting::None, depth + 1);
            continue;
        }
        if (is(child, "command_name")) {
            const QList<TSNode> parts = childrenOf(child);
            if (parts.size() != 1) {
                opaque(u"the command name is not one word"_s);
                return;
            }
            visit(parts.first(), Quoting::None, depth + 1);
            words.append(word(parts.first()));
            named = true;
            continue;
        }
        if (!ts_node_is_named(child)) {
            // $"…": the grammar gives the $ on its own.
            if (is(child, "$")) {
                dollarBefore = true;
                continue;
            }
            opaque(u"the command has a %1 the checker does not know"_s.arg(typeOf(child)));
            return;
        }
        if (!named) {
            opaque(u"the command has a %1 before its name"_s.arg(typeOf(child)));
            return;
        }
        visit(child, Quoting::None, depth + 1);
        Word argument = word(child);
        if (dollarBefore) {
            argument.raw.prepend(u'$');
            argument.start -= 1;
            argument.value.reset();
            dollarBefore = false;
        }
        words.append(argument);
    }
    if (stopped())
        return;
    if (dollarBefore) {
        opaque(u"a lone $ the checker does not know"_s);
        return;
    }
    if (!named) {
        record(node, {}, true, at);
        return;
    }
    // (( … )): the grammar reads it as a command named by its arithmetic,
    // which visit() has checked.
    if (words.size() == 1 && words.first().raw.startsWith("(("_L1) && words.first().raw.endsWith("))"_L1))
        return;
    if (!words.first().isFixed()) {
        opaque(u"the command name is computed when the line runs"_s);
        return;
    }
    record(node, words, false, at);
    examine(words, 0, words.size(), depth);
}

// export, declare, typeset, local, readonly, unset: the grammar gives them
// their own node; bash runs them as builtins with these words.
void BashLineWalker::visitDeclaration(TSNode node, int depth)
{
    const qsizetype at = m_out.m_commands.size();
    QList<Word> words;
    for (const TSNode &child : childrenOf(node)) {
        if (stopped())
            return;
        if (!ts_node_is_named(child)) {
            if (words.isEmpty()) {
                Word keyword;
                keyword.raw = text(child);
                keyword.value = keyword.raw;
                keyword.start = ts_node_start_byte(child);
                keyword.end = ts_node_end_byte(child);
                words.append(keyword);
                continue;
            }
            opaque(u"the declaration has a %1 the checker does not know"_s.arg(typeOf(child)));
            return;
        }
        if (is(child, "file_redirect") || is(child, "heredoc_redirect") || is(child, "herestring_redirect")) {
            visit(child, Quoting::None, depth + 1);
            continue;
        }
        if (is(child, "variable_assignment")) {
            visitAssignment(child, Quoting::None, depth + 1);
            words.append(word(child));
            continue;
        }
        visit(child, Quoting::None, depth + 1);
        words.append(word(child));
    }
    if (stopped() || words.isEmpty())
        return;
    record(node, words, true, at);
    examine(words, 0, words.size(), depth);
}

void BashLineWalker::visitAssignment(TSNode node, Quoting quoting, int depth)
{
    const QList<TSNode> parts = childrenOf(node);
    if (parts.isEmpty()) {
        opaque(u"an empty assignment"_s);
        return;
    }
    const TSNode name = parts.first();
    if (is(name, "variable_name")) {
        checkVariableName(text(name));
    } else if (is(name, "subscript")) {
        checkSubscript(name, false);
        const QList<TSNode> inner = childrenOf(name);
        if (!inner.isEmpty())
            checkVariableName(text(inner.first()));
    } else {
        opaque(u"an assignment to %1"_s.arg(text(name)));
        return;
    }
    for (qsizetype k = 1; k < parts.size(); ++k)
        visit(parts.at(k), quoting, depth + 1);
}

void BashLineWalker::checkVariableName(const QString &name)
{
    if (!isIdentifier(name)) {
        opaque(u"a variable name bash evaluates (%1)"_s.arg(name));
        return;
    }
    if (isDangerousVariable(name))
        opaque(u"it sets %1, which changes what later words run"_s.arg(name));
}

// An index bash evaluates as arithmetic: reading a variable there reads its
// value as arithmetic too, and that can run a[$(command)].
void BashLineWalker::checkSubscript(TSNode node, bool listAllowed)
{
    const QList<TSNode> parts = childrenOf(node);
    if (parts.size() != 4 || !is(parts.at(0), "variable_name")) {
        opaque(u"an array subscript the checker does not know"_s);
        return;
    }
    const QString index = text(parts.at(2));
    if (isDigits(index))
        return;
    if (listAllowed && (index == "@"_L1 || index == "*"_L1))
        return;
    opaque(u"an array subscript that is evaluated as arithmetic (%1)"_s.arg(index));
}

void BashLineWalker::visitArithmetic(TSNode node, int depth)
{
    if (stopped())
        return;
    if (depth > MaxDepth) {
        opaque(u"the line is nested too deeply"_s);
        return;
    }
    if (!ts_node_is_named(node))
        return;
    if (is(node, "number")) {
        const QString value = text(node);
        if (!value.isEmpty() && value.at(0).isDigit() && ts_node_child_count(node) == 0
            && !value.contains(u'$') && !value.contains(u'`'))
            return;
    } else if (is(node, "binary_expression") || is(node, "unary_expression") || is(node, "parenthesized_expression")
               || is(node, "ternary_expression")) {
        for (const TSNode &child : childrenOf(node))
            visitArithmetic(child, depth + 1);
        return;
    }
    opaque(u"arithmetic that reads variables or expands words (%1), which bash evaluates as code"_s.arg(text(node)));
}

void BashLineWalker::visitExpansion(TSNode node, Quoting quoting, int depth)
{
    const QList<TSNode> parts = childrenOf(node);
    QString variable;
    for (qsizetype k = 0; k < parts.size(); ++k) {
        if (stopped())
            return;
        const TSNode part = parts.at(k);
        const QString value = text(part);
        if (!ts_node_is_named(part)) {
            if (k == 1 && value == "!"_L1) {
                opaque(u"${!…} reads the variable a value names"_s);
                return;
            }
            if (value == "@"_L1) {
                const QString transform = k + 1 < parts.size() ? text(parts.at(k + 1)) : QString();
                if (transform != "Q"_L1 && transform != "U"_L1 && transform != "u"_L1 && transform != "L"_L1) {
                    opaque(u"${…@%1} transforms a value in a way that can evaluate it"_s.arg(transform));
                    return;
                }
                ++k;
                continue;
            }
            if (value == ":"_L1) {
                // ${x:offset:length}: both are arithmetic.
                for (qsizetype rest = k + 1; rest < parts.size(); ++rest) {
                    const QString piece = text(parts.at(rest));
                    if (piece != ":"_L1 && piece != "}"_L1 && !isDigits(piece)) {
                        opaque(u"a substring offset that is evaluated as arithmetic (%1)"_s.arg(piece));
                        return;
                    }
                }
                return;
            }
            if ((value == "="_L1 || value == ":="_L1) && isDangerousVariable(variable)) {
                opaque(u"it sets %1, which changes what later words run"_s.arg(variable));
                return;
            }
            continue;
        }
        if (is(part, "variable_name") || is(part, "special_variable_name")) {
            variable = value;
            continue;
        }
        if (is(part, "subscript")) {
            checkSubscript(part, true);
            const QList<TSNode> inner = childrenOf(part);
            if (!inner.isEmpty())
                variable = text(inner.first());
            continue;
        }
        visit(part, quoting, depth + 1);
    }
}

void BashLineWalker::visitArray(TSNode node, int depth)
{
    static const QRegularExpression fixedIndex(u"^\\[[0-9]+\\]\\+?="_s);
    for (const TSNode &element : childrenOf(node)) {
        if (!ts_node_is_named(element))
            continue;
        const QString value = text(element);
        if (value.startsWith(u'[') && !fixedIndex.match(value).hasMatch()) {
            opaque(u"an array element with a subscript that is evaluated as arithmetic (%1)"_s.arg(value));
            return;
        }
        visit(element, Quoting::None, depth + 1);
    }
}

void BashLineWalker::visitTest(TSNode node, int depth)
{
    const QList<TSNode> parts = childrenOf(node);
    if (parts.size() < 2) {
        opaque(u"a test the checker does not know"_s);
        return;
    }
    const QString open = text(parts.first());
    if (open == "(("_L1) {
        for (qsizetype k = 1; k + 1 < parts.size(); ++k)
            visitArithmetic(parts.at(k), depth + 1);
        return;
    }
    if (open == "[["_L1) {
        const QByteArray &source = m_tree.source();
        const uint32_t afterOpen = ts_node_end_byte(parts.first());
        if (afterOpen >= uint32_t(source.size()) || !std::strchr(" \t\n", source.at(afterOpen))) {
            opaque(u"[[ not standing alone"_s);
            return;
        }
        for (qsizetype k = 1; k + 1 < parts.size(); ++k)
            visitCondition(parts.at(k), depth + 1);
        return;
    }
    if (open != "["_L1 || text(parts.last()) != "]"_L1) {
        opaque(u"a test the checker does not know"_s);
        return;
    }
    // "[ab]" is a word (a glob) to bash, not a test.
    const QByteArray &source = m_tree.source();
    const uint32_t afterOpen = ts_node_end_byte(parts.first());
    const uint32_t beforeClose = ts_node_start_byte(parts.last());
    if (afterOpen >= uint32_t(source.size()) || !std::strchr(" \t\n", source.at(afterOpen)) || beforeClose == 0
        || !std::strchr(" \t\n", source.at(beforeClose - 1))) {
        opaque(u"[ or ] not standing alone, which bash reads as part of a word"_s);
        return;
    }
    // [ is a command: its words are the operands and operators in order.
    const qsizetype at = m_out.m_commands.size();
    QList<Word> words;
    Word name;
    name.raw = open;
    name.value = open;
    name.start = ts_node_start_byte(parts.first());
    name.end = ts_node_end_byte(parts.first());
    words.append(name);
    for (qsizetype k = 1; k + 1 < parts.size(); ++k)
        flattenTestWords(parts.at(k), words, depth + 1);
    Word close = name;
    close.raw = text(parts.last());
    close.value = close.raw;
    close.start = ts_node_start_byte(parts.last());
    close.end = ts_node_end_byte(parts.last());
    words.append(close);
    if (stopped())
        return;
    record(node, words, false, at);
    examine(words, 0, words.size(), depth);
}

void BashLineWalker::flattenTestWords(TSNode node, QList<Word> &words, int depth)
{
    if (stopped())
        return;
    if (depth > MaxDepth) {
        opaque(u"the line is nested too deeply"_s);
        return;
    }
    if (!ts_node_is_named(node)) {
        static const QSet<QString> operators{u"="_s, u"=="_s, u"!="_s, u"!"_s, u"-a"_s, u"-o"_s};
        const QString value = text(node);
        if (!operators.contains(value)) {
            opaque(u"\"%1\" inside [ ], which bash reads differently"_s.arg(value));
            return;
        }
        Word op;
        op.raw = value;
        op.value = value;
        op.start = ts_node_start_byte(node);
        op.end = ts_node_end_byte(node);
        words.append(op);
        return;
    }
    if (is(node, "binary_expression") || is(node, "unary_expression") || is(node, "parenthesized_expression")) {
        for (const TSNode &child : childrenOf(node))
            flattenTestWords(child, words, depth + 1);
        return;
    }
    if (is(node, "test_operator")) {
        Word op;
        op.raw = text(node);
        op.value = op.raw;
        op.start = ts_node_start_byte(node);
        op.end = ts_node_end_byte(node);
        words.append(op);
        return;
    }
    if (!isWordNode(node)) {
        opaque(u"%1 inside [ ], which the checker does not know"_s.arg(typeOf(node)));
        return;
    }
    visit(node, Quoting::None, depth + 1);
    words.append(word(node));
}

// [[ … ]]: a shell keyword, not a command. Its arithmetic comparisons
// evaluate both sides as arithmetic; -v evaluates a subscript.
void BashLineWalker::visitCondition(TSNode node, int depth)
{
    if (stopped())
        return;
    if (depth > MaxDepth) {
        opaque(u"the line is nested too deeply"_s);
        return;
    }
    if (!ts_node_is_named(node))
        return;
    if (is(node, "binary_expression") || is(node, "unary_expression")) {
        static const QSet<QString> arithmetic{u"-eq"_s, u"-ne"_s, u"-lt"_s, u"-le"_s, u"-gt"_s, u"-ge"_s};
        QString op;
        for (const TSNode &child : childrenOf(node)) {
            if (is(child, "test_operator") || !ts_node_is_named(child))
                op = op.isEmpty() ? text(child) : op;
        }
        if (op == "-v"_L1 || op == "-R"_L1) {
            opaque(u"[[ %1 ]] evaluates a variable name's subscript"_s.arg(op));
            return;
        }
        const bool numeric = arithmetic.contains(op);
        for (const TSNode &child : childrenOf(node)) {
            if (!ts_node_is_named(child) || is(child, "test_operator"))
                continue;
            if (numeric) {
                visitArithmetic(child, depth + 1);
            } else if (is(child, "regex")) {
                checkLiteral(child, Quoting::Double);
            } else {
                visitCondition(child, depth + 1);
            }
        }
        return;
    }
    if (is(node, "parenthesized_expression")) {
        for (const TSNode &child : childrenOf(node))
            visitCondition(child, depth + 1);
        return;
    }
    if (isWordNode(node) || is(node, "regex")) {
        visit(node, Quoting::None, depth + 1);
        return;
    }
    opaque(u"%1 inside [[ ]], which the checker does not know"_s.arg(typeOf(node)));
}

void BashLineWalker::visitRedirect(TSNode node, int depth)
{
    QString op;
    for (const TSNode &child : childrenOf(node)) {
        if (stopped())
            return;
        if (!ts_node_is_named(child)) {
            op = text(child);
            continue;
        }
        if (is(child, "file_descriptor"))
            continue;
        visit(child, Quoting::None, depth + 1);
        if (!isWordNode(child))
            continue;
        const Word target = word(child);
        if (!target.value || target.value->isEmpty())
            continue;
        static const QSet<QString> files{u">"_s, u">>"_s, u"&>"_s, u"&>>"_s, u">|"_s, u"<"_s, u"<>"_s};
        const bool duplicate = op == ">&"_L1 || op == "<&"_L1;
        const bool toDescriptor = isDigits(*target.value) || *target.value == "-"_L1
                                  || (target.value->endsWith(u'-') && isDigits(target.value->chopped(1)));
        if (files.contains(op) || (duplicate && !toDescriptor))
            m_out.m_redirectTargets.append(*target.value);
    }
}

void BashLineWalker::visitHeredoc(TSNode node, int depth)
{
    QString op;
    QString delimiter;
    bool quoted = false;
    std::optional<TSNode> body;
    std::optional<TSNode> end;
    for (const TSNode &child : childrenOf(node)) {
        if (stopped())
            return;
        if (!ts_node_is_named(child)) {
            op = text(child);
            continue;
        }
        if (is(child, "heredoc_start")) {
            const QString start = text(child);
            if (start.contains(u'$') || start.contains(u'`')) {
                opaque(u"a here-document delimiter with $ or `"_s);
                return;
            }
            quoted = start.contains(u'\'') || start.contains(u'"') || start.contains(u'\\');
            for (qsizetype k = 0; k < start.size(); ++k) {
                const QChar c = start.at(k);
                if (c == u'\\' && k + 1 < start.size())
                    delimiter.append(start.at(++k));
                else if (c != u'\'' && c != u'"')
                    delimiter.append(c);
            }
            continue;
        }
        if (is(child, "heredoc_body")) {
            body = child;
            continue;
        }
        if (is(child, "heredoc_end")) {
            end = child;
            continue;
        }
        visit(child, Quoting::None, depth + 1);
    }
    if (stopped())
        return;
    // The body ends where bash ends it, or the grammar and bash disagree
    // on which lines are commands.
    if (!end || text(*end) != delimiter || delimiter.isEmpty()) {
        opaque(u"a here-document whose end the checker cannot place"_s);
        return;
    }
    const QByteArray &source = m_tree.source();
    uint32_t lineStart = ts_node_start_byte(*end);
    while (op == "<<-"_L1 && lineStart > 0 && source.at(lineStart - 1) == '\t')
        --lineStart;
    const uint32_t after = ts_node_end_byte(*end);
    if ((lineStart > 0 && source.at(lineStart - 1) != '\n') || (after < uint32_t(source.size()) && source.at(after) != '\n')) {
        opaque(u"a here-document whose end the checker cannot place"_s);
        return;
    }
    // A quoted delimiter leaves the body as it is: nothing in it runs.
    if (body && !quoted)
        visit(*body, Quoting::Double, depth + 1);
}

BashLineAnalysis::Word BashLineWalker::word(TSNode node) const
{
    Word result;
    result.raw = text(node);
    result.start = ts_node_start_byte(node);
    result.end = ts_node_end_byte(node);
    bool expands = false;
    result.value = staticValue(node, expands);
    // Brace expansion: a { with a comma or a sequence after it.
    const qsizetype brace = result.raw.indexOf(u'{');
    if (brace >= 0 && (result.raw.indexOf(u',', brace) > 0 || result.raw.indexOf(".."_L1, brace) > 0))
        expands = true;
    result.expands = expands;
    result.single = is(node, "string") && !result.raw.contains("$@"_L1) && !result.raw.contains("[@]"_L1)
                    && !result.raw.contains("${!"_L1);
    return result;
}

std::optional<QString> BashLineWalker::staticValue(TSNode node, bool &expands) const
{
    const QString raw = text(node);
    if (is(node, "word")) {
        if (ts_node_child_count(node) > 0)
            return std::nullopt;
        return unquoteWord(raw, expands);
    }
    if (is(node, "number"))
        return ts_node_child_count(node) == 0 ? unquoteWord(raw, expands) : std::nullopt;
    if (is(node, "variable_name"))
        return raw;
    if (is(node, "raw_string"))
        return raw.size() >= 2 ? std::optional<QString>(raw.mid(1, raw.size() - 2)) : std::nullopt;
    if (is(node, "ansi_c_string")) {
        if (raw.size() < 3 || raw.contains(u'\\'))
            return std::nullopt;
        return raw.mid(2, raw.size() - 3);
    }
    if (is(node, "string")) {
        QString value;
        for (const TSNode &child : childrenOf(node)) {
            if (!ts_node_is_named(child) && text(child) == "\""_L1)
                continue;
            if (!is(child, "string_content"))
                return std::nullopt;
            value += unquoteDouble(text(child));
        }
        return value;
    }
    if (is(node, "variable_assignment")) {
        // NAME=value as an argument (declare, or any command): the name is
        // written out, the value may be fixed.
        QString value;
        for (const TSNode &child : childrenOf(node)) {
            if (!ts_node_is_named(child) || is(child, "variable_name") || is(child, "subscript")) {
                value += text(child);
                continue;
            }
            const std::optional<QString> part = staticValue(child, expands);
            if (!part)
                return std::nullopt;
            value += *part;
        }
        return value;
    }
    if (is(node, "concatenation")) {
        QString value;
        for (const TSNode &child : childrenOf(node)) {
            if (!ts_node_is_named(child))
                return std::nullopt;
            const std::optional<QString> part = staticValue(child, expands);
            if (!part)
                return std::nullopt;
            // Only the first piece of a word can start a tilde.
            value += *part;
        }
        return value;
    }
    return std::nullopt;
}

void BashLineWalker::record(TSNode node, const QList<Word> &words, bool setsVariables, qsizetype at)
{
    BashLineAnalysis::Command command;
    command.text = text(node).trimmed();
    command.words = words;
    command.setsVariables = setsVariables;
    m_out.m_commands.insert(at < 0 ? m_out.m_commands.size() : at, command);
}

void BashLineWalker::recordInner(const QList<Word> &words, qsizetype first, qsizetype end)
{
    BashLineAnalysis::Command command;
    command.text = m_tree.text(words.at(first).start, words.at(end - 1).end);
    command.words = words.mid(first, end - first);
    m_out.m_commands.append(command);
}

// What a command with a fixed name does beyond running that name: the
// builtins that evaluate their arguments, the wrappers that run another
// command.
void BashLineWalker::examine(const QList<Word> &words, qsizetype first, qsizetype end, int depth)
{
    if (stopped())
        return;
    if (depth > MaxDepth) {
        opaque(u"the line is nested too deeply"_s);
        return;
    }
    if (!words.at(first).isFixed()) {
        opaque(u"the command name is computed when the line runs"_s);
        return;
    }
    const QString name = baseName(*words.at(first).value);
    const QString written = words.at(first).raw;
    if (runsCodeItCannotSee(name)) {
        opaque(u"it runs %1, which runs code the checker cannot see"_s.arg(name));
        return;
    }
    if (isReservedWord(written)) {
        opaque(u"bash may read %1 as a reserved word"_s.arg(written));
        return;
    }
    if (isShell(name)) {
        examineShell(words, first, end);
        return;
    }
    if (name == "set"_L1) {
        static const QRegularExpression flags(u"^[-+][euxvfnoEBCTHhbmP]*$"_s);
        static const QSet<QString> options{u"pipefail"_s, u"errexit"_s, u"nounset"_s, u"xtrace"_s, u"verbose"_s,
                                           u"noclobber"_s, u"noglob"_s, u"errtrace"_s, u"functrace"_s, u"--"_s};
        for (qsizetype k = first + 1; k < end; ++k) {
            const Word &argument = words.at(k);
            if (!argument.isFixed()
                || (!flags.match(*argument.value).hasMatch() && !options.contains(*argument.value))) {
                opaque(u"set with options or arguments the checker does not know"_s);
                return;
            }
            if (*argument.value == "--"_L1 && k + 1 < end) {
                opaque(u"set -- with arguments the line may evaluate"_s);
                return;
            }
        }
        return;
    }
    if (name == "trap"_L1) {
        const QString action = end > first + 1 ? words.at(first + 1).value.value_or(u"?"_s) : QString();
        if (end > first + 2 && action != "-"_L1 && !action.isEmpty() && action != "-p"_L1 && action != "-l"_L1) {
            opaque(u"trap runs its argument as code"_s);
            return;
        }
        return;
    }
    if (name == "let"_L1) {
        opaque(u"let evaluates its arguments as arithmetic"_s);
        return;
    }
    static const QSet<QString> declarations{u"declare"_s, u"typeset"_s, u"local"_s, u"export"_s, u"readonly"_s,
                                            u"unset"_s,   u"read"_s,    u"mapfile"_s, u"readarray"_s,
                                            u"getopts"_s, u"wait"_s,    u"printf"_s, u"unsetenv"_s};
    if (declarations.contains(name)) {
        examineDeclaration(name, words, first, end);
        return;
    }
    if (name == "test"_L1 || name == "["_L1) {
        examineTest(words, first, end);
        return;
    }
    if (name == "find"_L1) {
        examineFind(words, first, end, depth);
        return;
    }
    static const QSet<QString> wrappers{u"env"_s,     u"xargs"_s, u"nice"_s, u"nohup"_s, u"timeout"_s,
                                        u"time"_s,    u"command"_s, u"builtin"_s, u"sudo"_s, u"doas"_s,
                                        u"stdbuf"_s,  u"ionice"_s, u"setsid"_s};
    if (!wrappers.contains(name))
        return;
    const std::optional<qsizetype> inner = wrappedCommand(words, first, end);
    if (stopped() || !inner || *inner >= end)
        return;
    recordInner(words, *inner, end);
    examine(words, *inner, end, depth + 1);
}

// Where the command a wrapper runs starts; nullopt when it runs none.
// Options it does not know make the line opaque: one of them could take
// the next word as its value, or run something itself.
std::optional<qsizetype> BashLineWalker::wrappedCommand(const QList<Word> &words, qsizetype first, qsizetype end)
{
    const QString name = baseName(*words.at(first).value);
    const auto value = [&](qsizetype k) { return *words.at(k).value; };
    const auto unknown = [&](const QString &option) {
        opaque(u"%1 has an option the checker does not know (%2)"_s.arg(name, option));
        return std::nullopt;
    };
    // Options with a value, as a separate word or attached.
    struct Grammar {
        QStringList flags;       // take nothing
        QStringList withValue;   // take the next word (or =value, or attached to a short one)
        bool assignments = false; // NAME=value words before the command
        int positional = 0;       // words before the command that are not options
    };
    Grammar grammar;
    if (name == "env"_L1)
        grammar = {{u"-i"_s, u"-0"_s, u"--null"_s, u"--ignore-environment"_s, u"-v"_s, u"--debug"_s, u"-"_s},
                   {u"-u"_s, u"--unset"_s, u"-C"_s, u"--chdir"_s},
                   true,
                   0};
    else if (name == "xargs"_L1)
        grammar = {{u"-0"_s, u"--null"_s, u"-p"_s, u"--interactive"_s, u"-r"_s, u"--no-run-if-empty"_s, u"-t"_s,
                    u"--verbose"_s, u"-x"_s, u"--exit"_s, u"-o"_s, u"--open-tty"_s, u"-e"_s, u"-i"_s, u"-l"_s},
                   {u"-a"_s, u"--arg-file"_s, u"-d"_s, u"--delimiter"_s, u"-E"_s, u"--eof"_s, u"-I"_s,
                    u"--replace"_s, u"-L"_s, u"--max-lines"_s, u"-n"_s, u"--max-args"_s, u"-P"_s, u"--max-procs"_s,
                    u"-s"_s, u"--max-chars"_s, u"--process-slot-var"_s},
                   false,
                   0};
    else if (name == "nice"_L1)
        grammar = {{}, {u"-n"_s, u"--adjustment"_s}, false, 0};
    else if (name == "nohup"_L1 || name == "builtin"_L1)
        grammar = {{}, {}, false, 0};
    else if (name == "timeout"_L1)
        grammar = {{u"--preserve-status"_s, u"--foreground"_s, u"-v"_s, u"--verbose"_s},
                   {u"-s"_s, u"--signal"_s, u"-k"_s, u"--kill-after"_s},
                   false,
                   1};
    else if (name == "time"_L1)
        grammar = {{u"-p"_s}, {}, false, 0};
    else if (name == "command"_L1)
        grammar = {{u"-p"_s, u"-v"_s, u"-V"_s, u"-pv"_s, u"-pV"_s}, {}, false, 0};
    else if (name == "sudo"_L1)
        grammar = {{u"-E"_s, u"-H"_s, u"-n"_s, u"-P"_s, u"-S"_s, u"-k"_s, u"-K"_s, u"-b"_s, u"-A"_s, u"-B"_s,
                    u"-N"_s, u"--preserve-env"_s, u"--set-home"_s, u"--non-interactive"_s, u"--stdin"_s,
                    u"--background"_s, u"--askpass"_s, u"--bell"_s, u"--no-update"_s},
                   {u"-u"_s, u"--user"_s, u"-g"_s, u"--group"_s, u"-C"_s, u"--close-from"_s, u"-D"_s, u"--chdir"_s,
                    u"-p"_s, u"--prompt"_s, u"-r"_s, u"--role"_s, u"-t"_s, u"--type"_s, u"-T"_s,
                    u"--command-timeout"_s, u"-U"_s, u"--other-user"_s, u"-h"_s, u"--host"_s},
                   true,
                   0};
    else if (name == "doas"_L1)
        grammar = {{u"-n"_s}, {u"-u"_s}, false, 0};
    else if (name == "stdbuf"_L1)
        grammar = {{}, {u"-i"_s, u"--input"_s, u"-o"_s, u"--output"_s, u"-e"_s, u"--error"_s}, false, 0};
    else if (name == "ionice"_L1)
        grammar = {{u"-t"_s, u"--ignore"_s}, {u"-c"_s, u"--class"_s, u"-n"_s, u"--classdata"_s}, false, 0};
    else if (name == "setsid"_L1)
        grammar = {{u"-c"_s, u"--ctty"_s, u"-f"_s, u"--fork"_s, u"-w"_s, u"--wait"_s}, {}, false, 0};

    static const QRegularExpression assignment(u"^([A-Za-z_][A-Za-z0-9_]*)="_s);
    static const QRegularExpression niceNumber(u"^-[0-9]+$"_s);
    qsizetype k = first + 1;
    const auto computed = [&](qsizetype k) {
        opaque(u"%1 runs a command given by words computed when the line runs (%2)"_s.arg(name, words.at(k).raw));
        return std::nullopt;
    };
    while (k < end) {
        if (!words.at(k).isFixed())
            return computed(k);
        const QString word = value(k);
        if (word == "--"_L1) {
            ++k;
            break;
        }
        if (grammar.assignments) {
            const QRegularExpressionMatch match = assignment.match(word);
            if (match.hasMatch()) {
                if (isDangerousVariable(match.captured(1))) {
                    opaque(u"%1 sets %2 for the command it runs"_s.arg(name, match.captured(1)));
                    return std::nullopt;
                }
                ++k;
                continue;
            }
        }
        if (!word.startsWith(u'-') || (word == "-"_L1 && name != "env"_L1))
            break;
        if (grammar.flags.contains(word) || (name == "nice"_L1 && niceNumber.match(word).hasMatch())) {
            ++k;
            continue;
        }
        if (grammar.withValue.contains(word)) {
            k += 2;
            continue;
        }
        const qsizetype equals = word.indexOf(u'=');
        if (word.startsWith("--"_L1) && equals > 0 && grammar.withValue.contains(word.left(equals))) {
            ++k;
            continue;
        }
        if (!word.startsWith("--"_L1) && word.size() > 2 && grammar.withValue.contains(word.left(2))) {
            ++k;
            continue;
        }
        return unknown(word);
    }
    for (int skipped = 0; skipped < grammar.positional && k < end; ++skipped, ++k) {
        if (!words.at(k).isFixed())
            return computed(k);
    }
    if (k >= end)
        return std::nullopt;
    return k;
}

void BashLineWalker::examineShell(const QList<Word> &words, qsizetype first, qsizetype end)
{
    const QString name = baseName(*words.at(first).value);
    for (qsizetype k = first + 1; k < end; ++k) {
        const Word &argument = words.at(k);
        if (!argument.isFixed()) {
            opaque(u"%1 runs with arguments computed when the line runs"_s.arg(name));
            return;
        }
        const QString value = *argument.value;
        if (value.startsWith("--"_L1)) {
            if (value == "--init-file"_L1 || value == "--rcfile"_L1 || value == "--"_L1) {
                opaque(u"%1 runs code the checker cannot see"_s.arg(name));
                return;
            }
            continue;
        }
        if (value.startsWith(u'-') || value.startsWith(u'+')) {
            if (value.contains(u'c') || value.contains(u's') || value.contains(u'i') || value.contains(u'o')
                || value.contains(u'O')) {
                opaque(u"%1 %2 runs code given as a string or on its input"_s.arg(name, value));
                return;
            }
            continue;
        }
        return; // a script file: the command is "<shell> <file>"
    }
    opaque(u"%1 reads the commands it runs from its input"_s.arg(name));
}

// Builtins that take variable names: a name with a subscript is evaluated
// as arithmetic, and some names change what later words run.
void BashLineWalker::examineDeclaration(const QString &name, const QList<Word> &words, qsizetype first, qsizetype end)
{
    const auto checkName = [this](const QString &word) {
        QString variable = word;
        const qsizetype equals = variable.indexOf(u'=');
        if (equals >= 0)
            variable = variable.left(equals);
        if (variable.endsWith(u'+'))
            variable.chop(1);
        static const QRegularExpression fixedElement(u"^[A-Za-z_][A-Za-z0-9_]*\\[[0-9]+\\]$"_s);
        if (fixedElement.match(variable).hasMatch())
            variable = variable.left(variable.indexOf(u'['));
        checkVariableName(variable);
    };
    if (name == "printf"_L1) {
        for (qsizetype k = first + 1; k < end; ++k) {
            const Word &argument = words.at(k);
            if (!argument.value) {
                if (k == first + 1)
                    opaque(u"printf with a first argument computed when the line runs"_s);
                return;
            }
            if (*argument.value == "-v"_L1) {
                if (k + 1 >= end || !words.at(k + 1).isFixed())
                    opaque(u"printf -v with a name computed when the line runs"_s);
                else
                    checkName(*words.at(k + 1).value);
                return;
            }
            if (argument.value->startsWith("-v"_L1)) {
                checkName(argument.value->mid(2));
                return;
            }
            if (*argument.value == "--"_L1 || !argument.value->startsWith(u'-'))
                return;
        }
        return;
    }
    if (name == "wait"_L1) {
        for (qsizetype k = first + 1; k < end; ++k) {
            if (!words.at(k).isFixed() || words.at(k).value->startsWith("-p"_L1) || words.at(k).value->contains(u'p')) {
                opaque(u"wait with arguments that name variables"_s);
                return;
            }
        }
        return;
    }
    // Options whose value is not a name.
    QStringList valued;
    if (name == "read"_L1)
        valued = {u"-d"_s, u"-i"_s, u"-n"_s, u"-N"_s, u"-p"_s, u"-t"_s, u"-u"_s};
    else if (name == "mapfile"_L1 || name == "readarray"_L1)
        valued = {u"-d"_s, u"-n"_s, u"-O"_s, u"-s"_s, u"-u"_s, u"-c"_s};
    bool optionsDone = false;
    for (qsizetype k = first + 1; k < end; ++k) {
        const Word &argument = words.at(k);
        if (!argument.isFixed()) {
            opaque(u"%1 with a name computed when the line runs"_s.arg(name));
            return;
        }
        const QString value = *argument.value;
        if (!optionsDone && value == "--"_L1) {
            optionsDone = true;
            continue;
        }
        if (!optionsDone && (value.startsWith(u'-') || value.startsWith(u'+')) && value.size() > 1) {
            if (valued.contains(value)) {
                ++k;
                continue;
            }
            if (value.size() > 2 && valued.contains(value.left(2)))
                continue;
            // -i makes later assignments arithmetic, -n makes a name a
            // reference that is resolved (and its subscript evaluated) on
            // every use; mapfile -C runs a callback.
            const QString letters = value.mid(1);
            if (letters.contains(u'i') || letters.contains(u'n') || letters.contains(u'C')) {
                opaque(u"%1 %2 evaluates values or runs code later"_s.arg(name, value));
                return;
            }
            continue;
        }
        if (name == "getopts"_L1 && k == first + 1)
            continue; // the option string
        if (name == "getopts"_L1 && k > first + 2)
            return; // the arguments parsed
        checkName(value);
        if (stopped())
            return;
    }
}

// test and [: operators are read from the argument values when the line
// runs, so a computed word could be -v, which evaluates a subscript. Only
// shapes where each computed word is a single operand are understood.
void BashLineWalker::examineTest(const QList<Word> &words, qsizetype first, qsizetype end)
{
    QList<Word> arguments = words.mid(first + 1, end - first - 1);
    if (baseName(*words.at(first).value) == "["_L1) {
        if (arguments.isEmpty() || !arguments.last().isFixed() || *arguments.last().value != "]"_L1) {
            opaque(u"[ without ]"_s);
            return;
        }
        arguments.removeLast();
    }
    bool allFixed = true;
    for (const Word &argument : std::as_const(arguments)) {
        if (argument.isFixed() && (*argument.value == "-v"_L1 || *argument.value == "-R"_L1)) {
            opaque(u"test -v evaluates a variable name's subscript"_s);
            return;
        }
        if (!argument.isFixed()) {
            allFixed = false;
            if (!argument.single) {
                opaque(u"a test whose words may split into operators when the line runs"_s);
                return;
            }
        }
    }
    if (allFixed)
        return;
    static const QSet<QString> binary{u"="_s,   u"=="_s,  u"!="_s,  u"<"_s,   u">"_s,   u"-eq"_s, u"-ne"_s,
                                      u"-lt"_s, u"-le"_s, u"-gt"_s, u"-ge"_s, u"-nt"_s, u"-ot"_s, u"-ef"_s};
    const auto fixedIs = [&](qsizetype k, const QString &text) {
        return arguments.at(k).isFixed() && *arguments.at(k).value == text;
    };
    const auto unaryAt = [&](qsizetype k) {
        return arguments.at(k).isFixed() && arguments.at(k).value->size() == 2 && arguments.at(k).value->startsWith(u'-');
    };
    const auto binaryAt = [&](qsizetype k) { return arguments.at(k).isFixed() && binary.contains(*arguments.at(k).value); };
    const qsizetype count = arguments.size();
    const bool understood = count == 1 || (count == 2 && (unaryAt(0) || fixedIs(0, u"!"_s)))
                            || (count == 3 && (binaryAt(1) || (fixedIs(0, u"!"_s) && unaryAt(1))))
                            || (count == 4 && fixedIs(0, u"!"_s) && binaryAt(2));
    if (!understood)
        opaque(u"a test whose operators are computed when the line runs"_s);
}

// find runs the commands of -exec, -execdir, -ok and -okdir up to ";" or "+".
void BashLineWalker::examineFind(const QList<Word> &words, qsizetype first, qsizetype end, int depth)
{
    bool computed = false;
    for (qsizetype k = first + 1; k < end; ++k) {
        const Word &argument = words.at(k);
        if (argument.isFixed())
            continue;
        if (!argument.single || computed) {
            opaque(u"find with words computed when the line runs, which could be -exec"_s);
            return;
        }
        computed = true;
    }
    static const QSet<QString> runners{u"-exec"_s, u"-execdir"_s, u"-ok"_s, u"-okdir"_s};
    for (qsizetype k = first + 1; k < end; ++k) {
        if (!words.at(k).isFixed() || !runners.contains(*words.at(k).value))
            continue;
        if (computed) {
            opaque(u"find -exec with words computed when the line runs"_s);
            return;
        }
        qsizetype stop = k + 1;
        while (stop < end && *words.at(stop).value != ";"_L1 && *words.at(stop).value != "+"_L1)
            ++stop;
        if (stop == k + 1 || stop >= end) {
            opaque(u"find %1 without a command or its end"_s.arg(*words.at(k).value));
            return;
        }
        recordInner(words, k + 1, stop);
        examine(words, k + 1, stop, depth + 1);
        if (stopped())
            return;
        k = stop;
    }
}

} // namespace qcode
