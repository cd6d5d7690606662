#include "LiteralScanner.h"

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QRegularExpression>
#include <QSet>

#include <algorithm>

using namespace Qt::StringLiterals;

namespace qcode::test {

namespace {

// Member functions whose string arguments a person reads.
const QSet<QString> Setters{
    u"setText"_s, u"setWindowTitle"_s, u"setToolTip"_s, u"setStatusTip"_s, u"setPlaceholderText"_s,
    u"setWhatsThis"_s, u"setTitle"_s, u"addAction"_s, u"addMenu"_s, u"addTab"_s, u"insertTab"_s,
    u"setTabText"_s, u"setTabToolTip"_s, u"addItem"_s, u"addItems"_s, u"insertItem"_s, u"insertItems"_s,
    u"setItemText"_s, u"showMessage"_s, u"setInformativeText"_s, u"setDetailedText"_s, u"setLabelText"_s,
    u"setHeaderLabel"_s, u"setHeaderLabels"_s, u"setHorizontalHeaderLabels"_s, u"setVerticalHeaderLabels"_s,
    u"setPrefix"_s, u"setSuffix"_s, u"setSpecialValueText"_s, u"setButtonText"_s, u"setIconText"_s,
    u"setWindowIconText"_s, u"setAccessibleName"_s, u"setAccessibleDescription"_s, u"addRow"_s,
    u"insertRow"_s, u"setNameFilter"_s, u"setNameFilters"_s, u"setFormat"_s, u"addSection"_s,
    u"insertSection"_s, u"addButton"_s,
};

// Classes whose constructors take the text they show.
const QSet<QString> Constructors{
    u"QLabel"_s,         u"QPushButton"_s,     u"QCheckBox"_s,       u"QRadioButton"_s,
    u"QGroupBox"_s,      u"QAction"_s,         u"QMenu"_s,           u"QCommandLinkButton"_s,
    u"QMessageBox"_s,    u"QListWidgetItem"_s, u"QTreeWidgetItem"_s, u"QTableWidgetItem"_s,
    u"QStandardItem"_s,  u"QDockWidget"_s,
};

// Static functions that open a dialog with the texts they are given.
const QHash<QString, QSet<QString>> StaticCalls{
    {u"QMessageBox"_s, {u"information"_s, u"warning"_s, u"critical"_s, u"question"_s, u"about"_s}},
    {u"QInputDialog"_s, {u"getText"_s, u"getMultiLineText"_s, u"getItem"_s, u"getInt"_s, u"getDouble"_s}},
    {u"QFileDialog"_s,
     {u"getOpenFileName"_s, u"getOpenFileNames"_s, u"getSaveFileName"_s, u"getExistingDirectory"_s,
      u"getOpenFileUrl"_s, u"getOpenFileUrls"_s, u"getSaveFileUrl"_s, u"getExistingDirectoryUrl"_s}},
    {u"QToolTip"_s, {u"showText"_s}},
};

// Setters whose first argument with text is the text and whose later ones
// are data: QComboBox::addItem(text, value).
const QSet<QString> TextThenData{u"addItem"_s, u"insertItem"_s};

// Calls that translate their string arguments: what is inside is fine.
const QSet<QString> Translators{
    u"tr"_s,          u"trUtf8"_s,        u"translate"_s,          u"QT_TR_NOOP"_s, u"QT_TRANSLATE_NOOP"_s,
    u"QT_TR_N_NOOP"_s, u"QT_TRANSLATE_N_NOOP"_s, u"qtTrId"_s, u"QT_TRID_NOOP"_s,
};

// Calls that only wrap a literal into a string: what is inside is as good
// as the literal itself.
const QSet<QString> Wrappers{
    u"QStringLiteral"_s, u"QLatin1String"_s, u"QLatin1StringView"_s, u"QStringView"_s, u"QString"_s,
    u"fromUtf8"_s,       u"fromLatin1"_s,    u"fromLocal8Bit"_s,      u"QStringList"_s,
};

const QStringList LiteralPrefixes{u"u8"_s, u"u"_s, u"U"_s, u"L"_s, u"R"_s, u"u8R"_s, u"uR"_s, u"UR"_s, u"LR"_s};

struct Token {
    enum class Kind { Identifier, Literal, Punctuation, Other };
    Kind kind;
    QString text;
    int line;     // where it starts
    int lastLine; // where it ends (a literal may span lines)
};

bool isIdentifierStart(QChar c)
{
    return c.isLetter() || c == u'_';
}

bool isIdentifierPart(QChar c)
{
    return c.isLetterOrNumber() || c == u'_';
}

class Lexer
{
public:
    explicit Lexer(const QString &text) : m_text(text) {}

    QList<Token> tokens;
    QSet<int> markedLines;

    void run()
    {
        while (m_pos < m_text.size()) {
            const QChar c = m_text.at(m_pos);
            if (c == u'\n') {
                ++m_line;
                ++m_pos;
            } else if (c.isSpace()) {
                ++m_pos;
            } else if (c == u'/' && peek(1) == u'/') {
                lineComment();
            } else if (c == u'/' && peek(1) == u'*') {
                blockComment();
            } else if (c == u'"') {
                stringLiteral(m_pos, m_pos);
            } else if (c == u'\'') {
                charLiteral(m_pos);
            } else if (c.isDigit() || (c == u'.' && peek(1).isDigit())) {
                number();
            } else if (isIdentifierStart(c)) {
                identifier();
            } else {
                punctuation();
            }
        }
    }

private:
    QChar peek(qsizetype ahead) const
    {
        return m_pos + ahead < m_text.size() ? m_text.at(m_pos + ahead) : QChar();
    }

    void noteComment(QStringView body, int line)
    {
        static const QRegularExpression marker(u"^\\s*\\**\\s*i18n:\\s*\\S"_s);
        if (marker.match(body.toString()).hasMatch())
            markedLines.insert(line);
    }

    void lineComment()
    {
        qsizetype end = m_text.indexOf(u'\n', m_pos);
        if (end < 0)
            end = m_text.size();
        noteComment(QStringView(m_text).mid(m_pos + 2, end - m_pos - 2), m_line);
        m_pos = end;
    }

    void blockComment()
    {
        qsizetype end = m_text.indexOf(u"*/"_s, m_pos + 2);
        if (end < 0)
            end = m_text.size();
        noteComment(QStringView(m_text).mid(m_pos + 2, end - m_pos - 2), m_line);
        m_line += int(QStringView(m_text).mid(m_pos, end - m_pos).count(u'\n'));
        m_pos = std::min(end + 2, m_text.size());
    }

    void number()
    {
        while (m_pos < m_text.size()) {
            const QChar c = m_text.at(m_pos);
            const QChar before = m_pos > 0 ? m_text.at(m_pos - 1).toLower() : QChar();
            if (isIdentifierPart(c) || c == u'.' || c == u'\''
                || ((c == u'+' || c == u'-') && (before == u'e' || before == u'p')))
                ++m_pos;
            else
                break;
        }
        tokens.append({Token::Kind::Other, {}, m_line, m_line});
    }

    void identifier()
    {
        const qsizetype start = m_pos;
        while (m_pos < m_text.size() && isIdentifierPart(m_text.at(m_pos)))
            ++m_pos;
        const QString word = m_text.mid(start, m_pos - start);
        if (m_pos < m_text.size() && LiteralPrefixes.contains(word)) {
            if (m_text.at(m_pos) == u'"') {
                stringLiteral(start, m_pos);
                return;
            }
            if (m_text.at(m_pos) == u'\'' && !word.endsWith(u'R')) {
                charLiteral(start);
                return;
            }
        }
        tokens.append({Token::Kind::Identifier, word, m_line, m_line});
    }

    // `start` is where the token begins (its prefix), `quote` its opening ".
    void stringLiteral(qsizetype start, qsizetype quote)
    {
        const int firstLine = m_line;
        const bool raw = quote > start && m_text.at(quote - 1) == u'R';
        m_pos = quote + 1;
        if (raw) {
            const qsizetype open = m_text.indexOf(u'(', m_pos);
            const QString close = u")"_s + m_text.mid(m_pos, open - m_pos) + u'"';
            qsizetype end = open < 0 ? -1 : m_text.indexOf(close, open);
            end = end < 0 ? m_text.size() : end + close.size();
            m_line += int(QStringView(m_text).mid(m_pos, end - m_pos).count(u'\n'));
            m_pos = end;
        } else {
            while (m_pos < m_text.size() && m_text.at(m_pos) != u'"') {
                if (m_text.at(m_pos) == u'\\')
                    ++m_pos;
                else if (m_text.at(m_pos) == u'\n')
                    ++m_line;
                ++m_pos;
            }
            m_pos = std::min(m_pos + 1, m_text.size());
        }
        while (m_pos < m_text.size() && isIdentifierPart(m_text.at(m_pos)))
            ++m_pos; // a user-defined suffix: _s, _L1
        const QString text = m_text.mid(start, m_pos - start);
        // "a" "b" is one literal.
        if (!tokens.isEmpty() && tokens.last().kind == Token::Kind::Literal) {
            tokens.last().text += u' ' + text;
            tokens.last().lastLine = m_line;
        } else {
            tokens.append({Token::Kind::Literal, text, firstLine, m_line});
        }
    }

    void charLiteral(qsizetype start)
    {
        m_pos = m_text.indexOf(u'\'', start) + 1;
        while (m_pos < m_text.size() && m_text.at(m_pos) != u'\'' && m_text.at(m_pos) != u'\n') {
            if (m_text.at(m_pos) == u'\\')
                ++m_pos;
            ++m_pos;
        }
        m_pos = std::min(m_pos + 1, m_text.size());
        tokens.append({Token::Kind::Other, {}, m_line, m_line});
    }

    void punctuation()
    {
        const QStringView two = QStringView(m_text).mid(m_pos, 2);
        const qsizetype length = (two == u"::" || two == u"->") ? 2 : 1;
        tokens.append({Token::Kind::Punctuation, m_text.mid(m_pos, length), m_line, m_line});
        m_pos += length;
    }

    const QString &m_text;
    qsizetype m_pos = 0;
    int m_line = 1;
};

bool isPunctuation(const Token &token, QStringView text)
{
    return token.kind == Token::Kind::Punctuation && token.text == text;
}

// A literal with nothing between its quotes.
bool isEmptyLiteral(const QString &literal)
{
    static const QRegularExpression empty(u"^[A-Za-z0-9]*\"\"[A-Za-z0-9_]*$"_s);
    return empty.match(literal).hasMatch();
}

class CallWalker
{
public:
    using Finding = LiteralScanner::Finding;

    CallWalker(const QList<Token> &tokens, const QSet<int> &marked, const QString &file)
        : m_tokens(tokens), m_marked(marked), m_file(file)
    {
    }

    QList<Finding> findings;

    void run()
    {
        for (qsizetype i = 0; i < m_tokens.size(); ++i) {
            const Token &token = m_tokens.at(i);
            if (token.kind != Token::Kind::Identifier)
                continue;
            if (Setters.contains(token.text) && opens(i + 1)) {
                arguments(i + 1, token);
            } else if (StaticCalls.contains(token.text) && i + 3 < m_tokens.size()
                       && isPunctuation(m_tokens.at(i + 1), u"::")
                       && StaticCalls.value(token.text).contains(m_tokens.at(i + 2).text) && opens(i + 3)) {
                arguments(i + 3, token, token.text + u"::"_s + m_tokens.at(i + 2).text);
            } else if (Constructors.contains(token.text) && !follows(i, u"::")) {
                if (opens(i + 1) && isPunctuation(m_tokens.at(i + 1), u"("))
                    arguments(i + 1, token); // QLabel(…), new QLabel(…), : QGroupBox(…)
                else if (i + 2 < m_tokens.size() && m_tokens.at(i + 1).kind == Token::Kind::Identifier
                         && opens(i + 2))
                    arguments(i + 2, token); // QLabel label(…)
            }
        }
    }

private:
    bool opens(qsizetype i) const
    {
        return i < m_tokens.size() && (isPunctuation(m_tokens.at(i), u"(") || isPunctuation(m_tokens.at(i), u"{"));
    }

    bool follows(qsizetype i, QStringView text) const
    {
        return i > 0 && isPunctuation(m_tokens.at(i - 1), text);
    }

    // The index of the bracket that closes the one at `open`.
    qsizetype closing(qsizetype open) const
    {
        int depth = 0;
        for (qsizetype i = open; i < m_tokens.size(); ++i) {
            const Token &token = m_tokens.at(i);
            if (token.kind != Token::Kind::Punctuation)
                continue;
            if (token.text == "("_L1 || token.text == "{"_L1 || token.text == "["_L1)
                ++depth;
            else if ((token.text == ")"_L1 || token.text == "}"_L1 || token.text == "]"_L1) && --depth == 0)
                return i;
        }
        return m_tokens.size();
    }

    void arguments(qsizetype open, const Token &call, const QString &name = {})
    {
        const qsizetype close = closing(open);
        QList<std::pair<qsizetype, qsizetype>> ranges; // each argument, [first, last)
        qsizetype first = open + 1;
        for (qsizetype i = open + 1; i < close; ++i) {
            if (isPunctuation(m_tokens.at(i), u"(") || isPunctuation(m_tokens.at(i), u"{")
                || isPunctuation(m_tokens.at(i), u"[")) {
                i = closing(i);
            } else if (isPunctuation(m_tokens.at(i), u",")) {
                ranges.append({first, i});
                first = i + 1;
            }
        }
        ranges.append({first, close});

        const bool textThenData = TextThenData.contains(call.text);
        for (const auto &[begin, end] : std::as_const(ranges)) {
            QList<const Token *> literals;
            const bool translated = direct(begin, end, literals);
            for (const Token *literal : std::as_const(literals))
                report(*literal, call, name.isEmpty() ? call.text : name);
            // The first argument with text in it is the text; the rest is
            // data (a combo box item's value).
            if (textThenData && (translated || !literals.isEmpty()))
                break;
        }
    }

    // Collects the literals that lie directly in [begin, end): outside any
    // call but the wrappers, inside brackets that only group. Returns
    // whether a translating call is among what it passed over.
    bool direct(qsizetype begin, qsizetype end, QList<const Token *> &literals) const
    {
        bool translated = false;
        for (qsizetype i = begin; i < end; ++i) {
            const Token &token = m_tokens.at(i);
            if (token.kind == Token::Kind::Literal) {
                literals.append(&token);
                continue;
            }
            if (token.kind == Token::Kind::Identifier && Translators.contains(token.text))
                translated = true;
            if (token.kind != Token::Kind::Punctuation)
                continue;
            if (token.text == "("_L1) {
                const qsizetype close = closing(i);
                const Token *before = i > 0 ? &m_tokens.at(i - 1) : nullptr;
                const bool called = before
                                    && (before->kind == Token::Kind::Identifier || before->text == ">"_L1
                                        || before->text == ")"_L1 || before->text == "]"_L1);
                if (!called || Wrappers.contains(before->text))
                    translated = direct(i + 1, close, literals) || translated;
                i = close;
            } else if (token.text == "{"_L1 || token.text == "["_L1) {
                const qsizetype close = closing(i);
                translated = direct(i + 1, close, literals) || translated;
                i = close;
            }
        }
        return translated;
    }

    void report(const Token &literal, const Token &call, const QString &name)
    {
        if (isEmptyLiteral(literal.text) || m_marked.contains(call.line))
            return;
        for (int line = literal.line; line <= literal.lastLine; ++line) {
            if (m_marked.contains(line))
                return;
        }
        findings.append({m_file, literal.line, name, literal.text});
    }

    const QList<Token> &m_tokens;
    const QSet<int> &m_marked;
    QString m_file;
};

} // namespace

QString LiteralScanner::Finding::toString() const
{
    return u"%1:%2: %3(%4)"_s.arg(file).arg(line).arg(call, literal);
}

QList<LiteralScanner::Finding> LiteralScanner::scan(const QString &text, const QString &file)
{
    Lexer lexer(text);
    lexer.run();
    CallWalker walker(lexer.tokens, lexer.markedLines, file);
    walker.run();
    return walker.findings;
}

QList<LiteralScanner::Finding> LiteralScanner::scanTree(const QString &root)
{
    QStringList files;
    QDirIterator it(root, {u"*.cpp"_s, u"*.h"_s}, QDir::Files, QDirIterator::Subdirectories);
    while (it.hasNext())
        files.append(it.next());
    files.sort();
    const QDir base(root);
    QList<Finding> findings;
    for (const QString &path : std::as_const(files)) {
        QFile file(path);
        if (!file.open(QIODevice::ReadOnly)) {
            findings.append({base.relativeFilePath(path), 0, u"(unreadable)"_s, file.errorString()});
            continue;
        }
        findings.append(scan(QString::fromUtf8(file.readAll()), base.relativeFilePath(path)));
    }
    return findings;
}

} // namespace qcode::test
