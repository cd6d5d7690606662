#include "CppTokenizer.h"

#include <QRegularExpression>
#include <QStringList>

#include <algorithm>

using namespace Qt::StringLiterals;

namespace qcode::test {

namespace {

const QStringList LiteralPrefixes{u"u8"_s, u"u"_s, u"U"_s, u"L"_s, u"R"_s, u"u8R"_s, u"uR"_s, u"UR"_s, u"LR"_s};

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
    Lexer(const QString &text, CppTokens &out) : m_text(text), m_out(out) {}

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
            m_out.markedLines.insert(line);
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
        m_out.tokens.append({CppToken::Kind::Other, {}, m_line, m_line});
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
        m_out.tokens.append({CppToken::Kind::Identifier, word, m_line, m_line});
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
        if (!m_out.tokens.isEmpty() && m_out.tokens.last().kind == CppToken::Kind::Literal) {
            m_out.tokens.last().text += u' ' + text;
            m_out.tokens.last().lastLine = m_line;
        } else {
            m_out.tokens.append({CppToken::Kind::Literal, text, firstLine, m_line});
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
        m_out.tokens.append({CppToken::Kind::Other, {}, m_line, m_line});
    }

    void punctuation()
    {
        const QStringView two = QStringView(m_text).mid(m_pos, 2);
        const qsizetype length = (two == u"::" || two == u"->") ? 2 : 1;
        m_out.tokens.append({CppToken::Kind::Punctuation, m_text.mid(m_pos, length), m_line, m_line});
        m_pos += length;
    }

    const QString &m_text;
    CppTokens &m_out;
    qsizetype m_pos = 0;
    int m_line = 1;
};

} // namespace

CppTokens CppTokens::of(const QString &text)
{
    CppTokens tokens;
    Lexer(text, tokens).run();
    return tokens;
}

} // namespace qcode::test
