#include "LiteralScanner.h"

#include "CppTokenizer.h"

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QRegularExpression>
#include <QSet>

#include <utility>

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

bool isPunctuation(const CppToken &token, QStringView text)
{
    return token.kind == CppToken::Kind::Punctuation && token.text == text;
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

    CallWalker(const QList<CppToken> &tokens, const QSet<int> &marked, const QString &file)
        : m_tokens(tokens), m_marked(marked), m_file(file)
    {
    }

    QList<Finding> findings;

    void run()
    {
        for (qsizetype i = 0; i < m_tokens.size(); ++i) {
            const CppToken &token = m_tokens.at(i);
            if (token.kind != CppToken::Kind::Identifier)
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
                else if (i + 2 < m_tokens.size() && m_tokens.at(i + 1).kind == CppToken::Kind::Identifier
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
            const CppToken &token = m_tokens.at(i);
            if (token.kind != CppToken::Kind::Punctuation)
                continue;
            if (token.text == "("_L1 || token.text == "{"_L1 || token.text == "["_L1)
                ++depth;
            else if ((token.text == ")"_L1 || token.text == "}"_L1 || token.text == "]"_L1) && --depth == 0)
                return i;
        }
        return m_tokens.size();
    }

    void arguments(qsizetype open, const CppToken &call, const QString &name = {})
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
            QList<const CppToken *> literals;
            const bool translated = direct(begin, end, literals);
            for (const CppToken *literal : std::as_const(literals))
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
    bool direct(qsizetype begin, qsizetype end, QList<const CppToken *> &literals) const
    {
        bool translated = false;
        for (qsizetype i = begin; i < end; ++i) {
            const CppToken &token = m_tokens.at(i);
            if (token.kind == CppToken::Kind::Literal) {
                literals.append(&token);
                continue;
            }
            if (token.kind == CppToken::Kind::Identifier && Translators.contains(token.text))
                translated = true;
            if (token.kind != CppToken::Kind::Punctuation)
                continue;
            if (token.text == "("_L1) {
                const qsizetype close = closing(i);
                const CppToken *before = i > 0 ? &m_tokens.at(i - 1) : nullptr;
                const bool called = before
                                    && (before->kind == CppToken::Kind::Identifier || before->text == ">"_L1
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

    void report(const CppToken &literal, const CppToken &call, const QString &name)
    {
        if (isEmptyLiteral(literal.text) || m_marked.contains(call.line))
            return;
        for (int line = literal.line; line <= literal.lastLine; ++line) {
            if (m_marked.contains(line))
                return;
        }
        findings.append({m_file, literal.line, name, literal.text});
    }

    const QList<CppToken> &m_tokens;
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
    const CppTokens tokens = CppTokens::of(text);
    CallWalker walker(tokens.tokens, tokens.markedLines, file);
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
