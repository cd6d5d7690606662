#include "BashCommandPatterns.h"

#include <QHash>
#include <QRegularExpression>
#include <QScopeGuard>

#include <algorithm>

namespace qcode {

namespace {

// OpenCode's BashArity table (1.2): how many words name a command. Only
// prefixes whose arity differs from their shorter prefix are listed.
const QHash<QString, int> &arityTable()
{
    static const QHash<QString, int> table = [] {
        QHash<QString, int> t;
        const char *const one[] = {
            "cat",   "cd",      "chmod",  "chown", "cp",     "echo",  "env",   "export", "grep",  "ionice",
            "kill",  "killall", "ln",     "ls",    "mkdir",  "mv",    "nice",  "nohup",  "ps",    "pwd",
            "rm",    "rmdir",   "sleep",  "source", "stdbuf", "sudo", "tail",  "time",   "timeout", "touch",
            "unset", "watch",   "which",  "xargs",
        };
        const char *const two[] = {
            "bazel", "brew",      "bun",       "cargo",   "cdk",     "cf",      "cmake",    "composer", "consul",
            "crictl", "deno",     "docker",    "eksctl",  "firebase", "flyctl", "git",      "go",       "gradle",
            "helm",  "heroku",    "hugo",      "ip",      "kind",    "kubectl", "kustomize", "make",    "mc",
            "minikube", "mongosh", "mysql",    "mvn",     "ng",      "npm",     "nvm",      "nx",       "openssl",
            "pip",   "pipenv",    "pnpm",      "poetry",  "podman",  "psql",    "pulumi",   "pyenv",    "python",
            "rake",  "rbenv",     "redis-cli", "rustup",  "serverless", "skaffold", "sls",  "sst",      "swift",
            "systemctl", "terraform", "tmux",  "turbo",   "ufw",     "vault",   "vercel",   "volta",    "wp",
            "yarn",
        };
        const char *const three[] = {
            "aws",            "az",              "bun run",          "bun x",           "cargo add",
            "cargo run",      "consul kv",       "deno task",        "doctl",           "docker builder",
            "docker compose", "docker container", "docker image",    "docker network",  "docker volume",
            "eksctl create",  "gcloud",          "gh",               "git config",      "git remote",
            "git stash",      "ip addr",         "ip link",          "ip netns",        "ip route",
            "kind create",    "kubectl kustomize", "kubectl rollout", "mc admin",       "npm exec",
            "npm init",       "npm run",         "npm view",         "openssl req",     "openssl x509",
            "pnpm dlx",       "pnpm exec",       "pnpm run",         "podman container", "podman image",
            "pulumi stack",   "sfdx",            "terraform workspace", "vault auth",   "vault kv",
            "yarn dlx",       "yarn run",
        };
        for (const char *name : one)
            t.insert(QLatin1String(name), 1);
        for (const char *name : two)
            t.insert(QLatin1String(name), 2);
        for (const char *name : three)
            t.insert(QLatin1String(name), 3);
        return t;
    }();
    return table;
}

bool isBlank(QChar c)
{
    return c == u' ' || c == u'\t' || c == u'\r';
}

// Characters that end an unquoted word.
bool isMeta(QChar c)
{
    return isBlank(c) || c == u'\n' || c == u';' || c == u'&' || c == u'|' || c == u'(' || c == u')' || c == u'<'
           || c == u'>';
}

bool isReserved(const QString &word)
{
    static const QStringList reserved{
        QStringLiteral("if"),   QStringLiteral("then"),  QStringLiteral("else"), QStringLiteral("elif"),
        QStringLiteral("fi"),   QStringLiteral("do"),    QStringLiteral("done"), QStringLiteral("while"),
        QStringLiteral("until"), QStringLiteral("{"),    QStringLiteral("}"),    QStringLiteral("!"),
        QStringLiteral("esac"), QStringLiteral("in"),
    };
    return reserved.contains(word);
}

bool isDeclaration(const QString &word)
{
    static const QStringList declarations{QStringLiteral("export"),   QStringLiteral("declare"),
                                          QStringLiteral("local"),    QStringLiteral("readonly"),
                                          QStringLiteral("typeset"),  QStringLiteral("unset")};
    return declarations.contains(word);
}

bool isAssignment(const QString &word)
{
    static const QRegularExpression assignment(QStringLiteral("^[A-Za-z_][A-Za-z0-9_]*(\\[[^\\]]*\\])?\\+?="));
    return assignment.match(word).hasMatch();
}

QString unquoteWord(const QString &text)
{
    QString result;
    QChar quote;
    for (qsizetype k = 0; k < text.size(); ++k) {
        const QChar c = text.at(k);
        if (!quote.isNull()) {
            if (c == quote)
                quote = QChar();
            else if (quote == u'"' && c == u'\\' && k + 1 < text.size())
                result.append(text.at(++k));
            else
                result.append(c);
        } else if (c == u'\'' || c == u'"') {
            quote = c;
        } else if (c == u'\\' && k + 1 < text.size()) {
            result.append(text.at(++k));
        } else {
            result.append(c);
        }
    }
    return result;
}

bool isFileRedirect(const QString &op)
{
    static const QStringList files{QStringLiteral(">"),  QStringLiteral(">>"), QStringLiteral("&>"),
                                   QStringLiteral("&>>"), QStringLiteral(">|"), QStringLiteral("<"),
                                   QStringLiteral("<>")};
    return files.contains(op);
}

struct Word {
    QString text;
    qsizetype start = 0;
    qsizetype end = 0;
    bool expansionOnly = false; // a lone $x, ${…}, $(…), `…`, $((…)) or <(…): not a token
};

struct HereDoc {
    QString delimiter;
    bool stripTabs = false;
};

class Scanner
{
public:
    explicit Scanner(const QString &source, int nesting = 0)
        : s(source)
        , depth(nesting)
    {
    }

    struct Found {
        qsizetype start;
        BashCommandPatterns::Command command;
    };
    QList<Found> found;
    QStringList redirectTargets; // files read or written by < > >> &> >| <>

    // Parses commands until `closer` (a ')' ending a subshell or $( ), or
    // the end), leaving i after the closer.
    void sequence(QChar closer)
    {
        // Nesting deeper than any real command line is not parsed further:
        // a hostile "$($($(…" must not exhaust the stack.
        if (depth >= MaxDepth) {
            i = s.size();
            return;
        }
        ++depth;
        const auto leave = qScopeGuard([this] { --depth; });
        Current current;
        while (i < s.size()) {
            const QChar c = s.at(i);
            if (!closer.isNull() && c == closer) {
                finish(current);
                ++i;
                return;
            }
            if (isBlank(c)) {
                ++i;
            } else if (c == u'\\' && peek(1) == u'\n') {
                i += 2;
            } else if (c == u'\n') {
                finish(current);
                ++i;
                skipHereDocs();
            } else if (c == u';') {
                finish(current);
                ++i;
                // ;; ;& ;;& end a case branch: a pattern comes next.
                if (i < s.size() && (s.at(i) == u';' || s.at(i) == u'&')) {
                    ++i;
                    if (i < s.size() && s.at(i) == u'&')
                        ++i;
                    if (caseDepth > 0)
                        expectCasePattern = true;
                }
            } else if (c == u'&' && peek(1) != u'>') {
                finish(current);
                i += peek(1) == u'&' ? 2 : 1;
            } else if (c == u'|') {
                finish(current);
                i += (peek(1) == u'|' || peek(1) == u'&') ? 2 : 1;
            } else if (c == u'(' && expectCasePattern && current.empty()) {
                ++i; // a case pattern's optional "("
            } else if (c == u'(') {
                if (peek(1) == u'(' && current.empty()) {
                    skipBalanced(u'(', u')'); // (( arithmetic ))
                } else if (!current.empty() && nextNonBlank(i + 1) == u')') {
                    // name() { …; }: a function definition, not a command.
                    current = Current();
                    i = s.indexOf(u')', i) + 1;
                } else {
                    finish(current);
                    ++i;
                    sequence(u')');
                }
            } else if (c == u')') {
                finish(current); // a stray ")" (a case pattern's, say)
                ++i;
            } else if (c == u'#' && (i == 0 || isMeta(s.at(i - 1)))) {
                while (i < s.size() && s.at(i) != u'\n')
                    ++i;
            } else {
                wordOrRedirect(current);
            }
        }
        finish(current);
    }

private:
    struct Current {
        qsizetype start = -1;
        qsizetype end = -1;
        QStringList tokens;
        bool named = false;
        bool declaration = false;
        bool header = false; // for/select/case header words: not a command

        bool empty() const { return start < 0; }
    };

    QChar peek(qsizetype ahead) const
    {
        return i + ahead < s.size() ? s.at(i + ahead) : QChar();
    }

    QChar nextNonBlank(qsizetype from) const
    {
        while (from < s.size() && isBlank(s.at(from)))
            ++from;
        return from < s.size() ? s.at(from) : QChar();
    }

    void finish(Current &current)
    {
        if (current.named && !current.declaration && !current.header && !current.tokens.isEmpty()) {
            found.append({current.start,
                          {s.mid(current.start, current.end - current.start).trimmed(), current.tokens}});
        }
        current = Current();
    }

    // Skips from an opening bracket past its partner, minding quotes.
    void skipBalanced(QChar open, QChar close)
    {
        int depth = 0;
        while (i < s.size()) {
            const QChar c = s.at(i);
            if (c == u'\\') {
                i += 2;
                continue;
            }
            if (c == u'\'' || c == u'"') {
                skipQuoted(c);
                continue;
            }
            ++i;
            if (c == open)
                ++depth;
            else if (c == close && --depth == 0)
                break;
        }
        i = std::min(i, s.size());
    }

    void skipQuoted(QChar quote)
    {
        ++i;
        while (i < s.size() && s.at(i) != quote) {
            if (quote == u'"' && s.at(i) == u'\\')
                ++i;
            else if (quote == u'"' && s.at(i) == u'$' && peek(1) == u'(')
                substitution();
            else if (quote == u'"' && s.at(i) == u'`')
                backticks();
            ++i;
        }
        i = std::min(i + 1, s.size());
    }

    // At "$(": its commands are commands too. Leaves i on the closing ")".
    void substitution()
    {
        if (peek(2) == u'(') {
            i += 1;
            const qsizetype before = i;
            skipBalanced(u'(', u')');
            i = std::max(before, i - 1);
            return;
        }
        i += 2;
        sequence(u')');
        --i;
    }

    // At "`": the quoted commands are parsed on their own. Leaves i on the
    // closing backtick.
    void backticks()
    {
        qsizetype end = i + 1;
        while (end < s.size() && s.at(end) != u'`') {
            if (s.at(end) == u'\\')
                ++end;
            ++end;
        }
        Scanner inner(s.mid(i + 1, end - i - 1), depth);
        inner.sequence(QChar());
        for (Found &f : inner.found)
            found.append({i + 1 + f.start, f.command});
        redirectTargets += inner.redirectTargets;
        i = std::min(end, s.size());
    }

    Word readWord()
    {
        Word word;
        word.start = i;
        qsizetype firstUnitEnd = -1;
        bool startsWithExpansion = false;
        if (s.at(i) == u'$' || s.at(i) == u'`' || ((s.at(i) == u'<' || s.at(i) == u'>') && peek(1) == u'('))
            startsWithExpansion = true;
        if ((s.at(i) == u'<' || s.at(i) == u'>') && peek(1) == u'(') {
            i += 2;
            sequence(u')');
            firstUnitEnd = i;
        }
        while (i < s.size() && !isMeta(s.at(i))) {
            const QChar c = s.at(i);
            if (c == u'\\') {
                i += 2;
            } else if (c == u'\'' || c == u'"') {
                skipQuoted(c);
            } else if (c == u'$' && peek(1) == u'\'') {
                ++i;
                ++i;
                while (i < s.size() && s.at(i) != u'\'') {
                    if (s.at(i) == u'\\')
                        ++i;
                    ++i;
                }
                ++i;
            } else if (c == u'$' && peek(1) == u'(') {
                substitution();
                ++i;
            } else if (c == u'$' && peek(1) == u'{') {
                ++i;
                skipBalanced(u'{', u'}');
            } else if (c == u'`') {
                backticks();
                ++i;
            } else if (c == u'$') {
                ++i;
                if (i < s.size() && (s.at(i).isLetter() || s.at(i) == u'_')) {
                    while (i < s.size() && (s.at(i).isLetterOrNumber() || s.at(i) == u'_'))
                        ++i;
                } else if (i < s.size() && !isMeta(s.at(i))) {
                    ++i; // $1 $? $@ …
                }
            } else {
                ++i;
            }
            if (firstUnitEnd < 0)
                firstUnitEnd = i;
        }
        i = std::min(i, s.size());
        word.end = i;
        word.text = s.mid(word.start, word.end - word.start);
        word.expansionOnly = startsWithExpansion && firstUnitEnd == word.end;
        return word;
    }

    // A redirection at i ("2>&1", ">> log", "<<EOF", "&>x")? Reads it and
    // its target and answers true.
    bool redirect(Current &current)
    {
        static const QRegularExpression op(
            QStringLiteral("\\G(?:\\d+|\\{[A-Za-z_][A-Za-z0-9_]*\\})?(&>>|&>|>>|>&|>\\||<<<|<<-|<<|<&|<>|>|<)"));
        const QRegularExpressionMatch match = op.match(s, i);
        if (!match.hasMatch())
            return false;
        // "<(" and ">(" are process substitutions, words of their own.
        if ((match.captured(1) == QLatin1String("<") || match.captured(1) == QLatin1String(">"))
            && match.capturedEnd(0) < s.size() && s.at(match.capturedEnd(0)) == u'('
            && match.capturedLength(0) == 1)
            return false;
        if (current.empty())
            current.start = i;
        const QString kind = match.captured(1);
        i = match.capturedEnd(0);
        while (i < s.size() && isBlank(s.at(i)))
            ++i;
        if (i < s.size() && !isMeta(s.at(i))) {
            const Word target = readWord();
            if (kind == QLatin1String("<<") || kind == QLatin1String("<<-"))
                pendingHereDocs.append({unquoteWord(target.text), kind == QLatin1String("<<-")});
            else if (isFileRedirect(kind) && !target.text.contains(u'$') && !target.text.contains(u'`'))
                redirectTargets.append(unquoteWord(target.text));
        } else if (i < s.size() && (s.at(i) == u'<' || s.at(i) == u'>') && peek(1) == u'(') {
            readWord();
        }
        current.end = i;
        return true;
    }

    void skipHereDocs()
    {
        for (const HereDoc &doc : std::as_const(pendingHereDocs)) {
            while (i < s.size()) {
                qsizetype end = s.indexOf(u'\n', i);
                if (end < 0)
                    end = s.size();
                QString line = s.mid(i, end - i);
                if (line.endsWith(u'\r'))
                    line.chop(1);
                if (doc.stripTabs) {
                    while (line.startsWith(u'\t'))
                        line.remove(0, 1);
                }
                i = std::min(end + 1, s.size());
                if (line == doc.delimiter)
                    break;
            }
        }
        pendingHereDocs.clear();
    }

    void wordOrRedirect(Current &current)
    {
        if (redirect(current))
            return;
        const qsizetype start = i;
        if (expectCasePattern && current.empty()) {
            const Word word = readWord();
            if (word.text == QLatin1String("esac")) {
                --caseDepth;
                expectCasePattern = false;
                return;
            }
            // Skip the pattern up to its ")".
            i = start;
            while (i < s.size() && s.at(i) != u')') {
                if (s.at(i) == u'\'' || s.at(i) == u'"')
                    skipQuoted(s.at(i));
                else
                    ++i;
            }
            ++i;
            expectCasePattern = false;
            return;
        }

        const Word word = readWord();
        if (word.end == start) { // a lone metacharacter readWord cannot take
            ++i;
            return;
        }
        if (!current.named && !current.header && !current.declaration) {
            // [ … ] and [[ … ]] are tests, not commands, to tree-sitter.
            if (word.text == QLatin1String("[[") || word.text == QLatin1String("[")) {
                skipTest(word.text == QLatin1String("[[") ? QStringLiteral("]]") : QStringLiteral("]"));
                return;
            }
            if (word.text == QLatin1String("esac") && caseDepth > 0) {
                --caseDepth;
                return;
            }
            if (isReserved(word.text) && current.empty())
                return;
            if (word.text == QLatin1String("function") && current.empty()) {
                skipFunctionName = true;
                return;
            }
            if (skipFunctionName) {
                skipFunctionName = false;
                if (nextNonBlank(i) == u'(') {
                    i = s.indexOf(u'(', i);
                    i = i < 0 ? s.size() : s.indexOf(u')', i);
                    i = i < 0 ? s.size() : i + 1;
                }
                return;
            }
            if ((word.text == QLatin1String("for") || word.text == QLatin1String("select")
                 || word.text == QLatin1String("case"))
                && current.empty()) {
                current.header = true;
                current.start = word.start;
                if (word.text == QLatin1String("case"))
                    inCaseHeader = true;
                return;
            }
        }
        if (current.header) {
            if (inCaseHeader && word.text == QLatin1String("in")) {
                inCaseHeader = false;
                ++caseDepth;
                expectCasePattern = true;
                current = Current();
            }
            return;
        }
        if (current.empty())
            current.start = word.start;
        current.end = word.end;
        if (current.declaration)
            return;
        if (!current.named) {
            if (isAssignment(word.text))
                return;
            if (isDeclaration(word.text)) {
                current.declaration = true;
                return;
            }
            current.named = true;
        }
        if (!word.expansionOnly)
            current.tokens.append(word.text);
    }

    void skipTest(const QString &closing)
    {
        while (i < s.size()) {
            while (i < s.size() && isBlank(s.at(i)))
                ++i;
            if (i >= s.size() || s.at(i) == u'\n')
                return;
            const qsizetype start = i;
            if (isMeta(s.at(i)) && s.at(i) != u'(' && s.at(i) != u')') {
                ++i;
                continue;
            }
            if (s.at(i) == u'(' || s.at(i) == u')') {
                ++i;
                continue;
            }
            const Word word = readWord();
            if (word.text == closing)
                return;
            if (i == start)
                ++i;
        }
    }

    const QString s;
    qsizetype i = 0;
    QList<HereDoc> pendingHereDocs;
    int caseDepth = 0;
    bool expectCasePattern = false;
    bool inCaseHeader = false;
    bool skipFunctionName = false;
    static constexpr int MaxDepth = 200;
    int depth = 0;
};

} // namespace

QList<BashCommandPatterns::Command> BashCommandPatterns::split(const QString &script)
{
    Scanner scanner(script);
    scanner.sequence(QChar());
    std::stable_sort(scanner.found.begin(), scanner.found.end(),
                     [](const Scanner::Found &a, const Scanner::Found &b) { return a.start < b.start; });
    QList<Command> commands;
    for (const Scanner::Found &f : std::as_const(scanner.found))
        commands.append(f.command);
    return commands;
}

QStringList BashCommandPatterns::redirectTargets(const QString &script)
{
    Scanner scanner(script);
    scanner.sequence(QChar());
    return scanner.redirectTargets;
}

QStringList BashCommandPatterns::arityPrefix(const QStringList &tokens)
{
    const QHash<QString, int> &table = arityTable();
    for (qsizetype length = tokens.size(); length > 0; --length) {
        const auto found = table.constFind(tokens.mid(0, length).join(u' '));
        if (found != table.cend())
            return tokens.mid(0, *found);
    }
    return tokens.mid(0, 1);
}

QString BashCommandPatterns::alwaysPattern(const QStringList &tokens)
{
    return arityPrefix(tokens).join(u' ') + QStringLiteral(" *");
}

bool BashCommandPatterns::touchesPaths(const Command &command)
{
    static const QStringList names{QStringLiteral("cd"),    QStringLiteral("rm"),    QStringLiteral("cp"),
                                   QStringLiteral("mv"),    QStringLiteral("mkdir"), QStringLiteral("touch"),
                                   QStringLiteral("chmod"), QStringLiteral("chown"), QStringLiteral("cat")};
    return !command.tokens.isEmpty() && names.contains(command.tokens.first());
}

QStringList BashCommandPatterns::pathArguments(const Command &command)
{
    if (!touchesPaths(command))
        return {};
    const bool chmod = command.tokens.first() == QLatin1String("chmod");
    QStringList paths;
    for (qsizetype k = 1; k < command.tokens.size(); ++k) {
        const QString &token = command.tokens.at(k);
        if (token.startsWith(u'-') || (chmod && token.startsWith(u'+')))
            continue;
        if (token.contains(u'$') || token.contains(u'`'))
            continue;
        const QString path = unquoteWord(token);
        if (!path.isEmpty())
            paths.append(path);
    }
    return paths;
}

} // namespace qcode
