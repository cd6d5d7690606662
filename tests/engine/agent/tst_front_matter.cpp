#include <QJsonArray>
#include <QJsonDocument>
#include <QRandomGenerator>
#include <QTest>

#include "engine/agent/FrontMatter.h"
#include "engine/agent/OpenCodeYamlRepair.h"
#include "engine/agent/YamlReader.h"

using namespace Qt::StringLiterals;
using namespace qcode;

namespace {

QJsonValue yaml(const QString &text)
{
    const Result<YamlDocument> parsed = YamlReader::parse(text, u"agent.md"_s);
    if (!parsed) {
        qWarning().noquote() << parsed.errorMessage();
        return QJsonValue::Undefined;
    }
    return parsed->root;
}

QString yamlError(const QString &text)
{
    const Result<YamlDocument> parsed = YamlReader::parse(text, u"agent.md"_s, 2);
    return parsed ? QString() : parsed.errorMessage();
}

QJsonObject object(const char *json)
{
    return QJsonDocument::fromJson(json).object();
}

} // namespace

// The YAML that OpenCode agents and commands put in their front matter.
class TestFrontMatter : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    // --- scalars -----------------------------------------------------------

    void plainScalarsTakeYamlCoreTypes()
    {
        const QJsonObject o = yaml(u"a: text\nb: 12\nc: 0.5\nd: true\ne: False\nf: ~\ng:\nh: null\ni: 1e3\n"
                                   u"j: 0x1F\nk: 1.2.3\nl: -4\n"_s)
                                  .toObject();
        QCOMPARE(o.value("a"_L1), QJsonValue(u"text"_s));
        QCOMPARE(o.value("b"_L1), QJsonValue(12));
        QCOMPARE(o.value("c"_L1), QJsonValue(0.5));
        QCOMPARE(o.value("d"_L1), QJsonValue(true));
        QCOMPARE(o.value("e"_L1), QJsonValue(false));
        QVERIFY(o.value("f"_L1).isNull());
        QVERIFY(o.value("g"_L1).isNull());
        QVERIFY(o.value("h"_L1).isNull());
        QCOMPARE(o.value("i"_L1), QJsonValue(1000));
        QCOMPARE(o.value("j"_L1), QJsonValue(31));
        QCOMPARE(o.value("k"_L1), QJsonValue(u"1.2.3"_s));
        QCOMPARE(o.value("l"_L1), QJsonValue(-4));
    }

    void quotedScalarsStayText()
    {
        const QJsonObject o = yaml(u"a: \"12\"\nb: 'true'\nc: 'it''s'\nd: \"tab\\there \\\"q\\\" \\u00e9\"\n"
                                   u"e: \"#FF0000\"\n"_s)
                                  .toObject();
        QCOMPARE(o.value("a"_L1), QJsonValue(u"12"_s));
        QCOMPARE(o.value("b"_L1), QJsonValue(u"true"_s));
        QCOMPARE(o.value("c"_L1), QJsonValue(u"it's"_s));
        QCOMPARE(o.value("d"_L1), QJsonValue(u"tab\there \"q\" \u00e9"_s));
        QCOMPARE(o.value("e"_L1), QJsonValue(u"#FF0000"_s));
    }

    void commentsAreIgnored()
    {
        const QJsonObject o = yaml(u"# heading\na: one # trailing\nb: \"two\" # after quotes\nc: x#y\n\n  # indented\n"_s)
                                  .toObject();
        QCOMPARE(o.value("a"_L1), QJsonValue(u"one"_s));
        QCOMPARE(o.value("b"_L1), QJsonValue(u"two"_s));
        QCOMPARE(o.value("c"_L1), QJsonValue(u"x#y"_s));
        QCOMPARE(o.size(), 3);
    }

    void plainValuesMayContainColonsAsOpenCodeAllows()
    {
        const QJsonObject o = yaml(u"description: Use this agent when: tests fail\nurl: http://example.com:8080/x\n"_s)
                                  .toObject();
        QCOMPARE(o.value("description"_L1), QJsonValue(u"Use this agent when: tests fail"_s));
        QCOMPARE(o.value("url"_L1), QJsonValue(u"http://example.com:8080/x"_s));
    }

    void openCodesRepairKeepsLineNumbersAndLeavesTheRestAlone()
    {
        const Result<YamlDocument> parsed = YamlReader::parse(
            u"name: reviewer\ndescription: Use when: tests fail, e.g. 'x'\ntools: {write: false}\nmode: subagent\n"_s,
            u"a.md"_s, 2);
        QVERIFY2(parsed, qPrintable(parsed.errorMessage()));
        const QJsonObject root = parsed->root.toObject();
        QCOMPARE(root.value("description"_L1), QJsonValue(u"Use when: tests fail, e.g. 'x'"_s));
        QCOMPARE(root.value("tools"_L1), QJsonValue(object(R"({"write":false})")));
        QCOMPARE(parsed->sourceMap.describe({u"mode"_s}), u"a.md:5"_s);
        QCOMPARE(OpenCodeYamlRepair::repair(u"a: b: c\r\n  d: e: f\r\n"_s), u"a: 'b: c'\r\n  d: e: f\r\n"_s);
    }

    void whatTheRepairCannotSaveReportsTheOriginalError()
    {
        QVERIFY2(yamlError(u"description: a: b\nx: [\n"_s).startsWith(u"agent.md:2: "_s),
                 qPrintable(yamlError(u"description: a: b\nx: [\n"_s)));
    }

    void plainScalarsContinueOnMoreIndentedLines()
    {
        const QJsonObject o = yaml(u"description: first part\n  second part\n\n  new paragraph\nnext: 1\n"_s).toObject();
        QCOMPARE(o.value("description"_L1), QJsonValue(u"first part second part\nnew paragraph"_s));
        QCOMPARE(o.value("next"_L1), QJsonValue(1));
        const QJsonObject below = yaml(u"description:\n  on its own\n  lines\n"_s).toObject();
        QCOMPARE(below.value("description"_L1), QJsonValue(u"on its own lines"_s));
    }

    void quotedScalarsMaySpanLines()
    {
        const QJsonObject o = yaml(u"a: \"one\n  two\"\nb: 'x\n\n  y'\n"_s).toObject();
        QCOMPARE(o.value("a"_L1), QJsonValue(u"one two"_s));
        QCOMPARE(o.value("b"_L1), QJsonValue(u"x\ny"_s));
    }

    void literalBlockScalarsKeepLines()
    {
        const QJsonObject o = yaml(u"prompt: |\n  line one\n    indented\n\n  after blank\nnext: x\n"_s).toObject();
        QCOMPARE(o.value("prompt"_L1), QJsonValue(u"line one\n  indented\n\nafter blank\n"_s));
        QCOMPARE(o.value("next"_L1), QJsonValue(u"x"_s));
    }

    void foldedBlockScalarsJoinLines()
    {
        const QJsonObject o = yaml(u"d: >\n  one\n  two\n\n  three\n"_s).toObject();
        QCOMPARE(o.value("d"_L1), QJsonValue(u"one two\nthree\n"_s));
    }

    void blockScalarChomping()
    {
        const QJsonObject o = yaml(u"strip: |-\n  a\n\nclip: |\n  b\n\n\nkeep: |+\n  c\n\n"_s).toObject();
        QCOMPARE(o.value("strip"_L1), QJsonValue(u"a"_s));
        QCOMPARE(o.value("clip"_L1), QJsonValue(u"b\n"_s));
        QCOMPARE(o.value("keep"_L1), QJsonValue(u"c\n\n"_s));
    }

    // --- collections -------------------------------------------------------

    void nestedMaps()
    {
        const QJsonObject o = yaml(u"permission:\n  edit: deny\n  bash:\n    \"*\": ask\n    'git status': allow\n"
                                   u"    rm -rf *: deny\nmode: subagent\n"_s)
                                  .toObject();
        QCOMPARE(o, object(R"({"permission":{"edit":"deny","bash":{"*":"ask","git status":"allow","rm -rf *":"deny"}},
                              "mode":"subagent"})"));
    }

    void unquotedStarKeysAreAcceptedAsText()
    {
        // Strict YAML reads "*" as an alias; people write it for "every".
        const QJsonObject o = yaml(u"bash:\n  *: deny\n  ls *: allow\n"_s).toObject();
        QCOMPARE(o, object(R"({"bash":{"*":"deny","ls *":"allow"}})"));
    }

    void starValuesAndListItemsAreAcceptedAsText()
    {
        const QJsonObject o = yaml(u"paths:\n  - *.md # docs\n  - src/x*\nall: *\n"_s).toObject();
        QCOMPARE(o, object(R"({"paths":["*.md","src/x*"],"all":"*"})"));
    }

    void blockLists()
    {
        const QJsonObject o = yaml(u"tools:\n  - read\n  - grep\nsame:\n- a\n- b\nnext: 1\n"_s).toObject();
        QCOMPARE(o, object(R"({"tools":["read","grep"],"same":["a","b"],"next":1})"));
    }

    void listItemsMayBeMaps()
    {
        const QJsonObject o = yaml(u"items:\n  - name: one\n    value: 1\n  - name: two\n    nested:\n      - x\n"
                                   u"  - plain\n"_s)
                                  .toObject();
        QCOMPARE(o, object(R"({"items":[{"name":"one","value":1},{"name":"two","nested":["x"]},"plain"]})"));
    }

    void flowCollections()
    {
        const QJsonObject o = yaml(u"a: [read, \"grep\", 3, true]\nb: {x: 1, 'y': [a, b], z: }\nc: []\nd: {}\n"
                                   u"e: [one,\n  two]\n"_s)
                                  .toObject();
        QCOMPARE(o, object(R"({"a":["read","grep",3,true],"b":{"x":1,"y":["a","b"],"z":null},"c":[],"d":{},
                              "e":["one","two"]})"));
    }

    void windowsLineEndingsAndUnicode()
    {
        const QJsonObject o = yaml(u"description: 代码审查\r\nmode: primary\r\n"_s).toObject();
        QCOMPARE(o.value("description"_L1), QJsonValue(u"代码审查"_s));
        QCOMPARE(o.value("mode"_L1), QJsonValue(u"primary"_s));
    }

    void keyOrderAndLinesAreRecorded()
    {
        const Result<YamlDocument> parsed =
            YamlReader::parse(u"zeta: 1\nalpha:\n  second: x\n  first: y\n"_s, u"a.md"_s, 2);
        QVERIFY(parsed);
        const QJsonObject root = parsed->root.toObject();
        QCOMPARE(parsed->sourceMap.orderedKeys({}, root), QStringList({u"zeta"_s, u"alpha"_s}));
        QCOMPARE(parsed->sourceMap.orderedKeys({u"alpha"_s}, root.value("alpha"_L1).toObject()),
                 QStringList({u"second"_s, u"first"_s}));
        QCOMPARE(parsed->sourceMap.describe({u"alpha"_s, u"first"_s}), u"a.md:5"_s);
        QCOMPARE(parsed->sourceMap.describe({u"alpha"_s, u"missing"_s}), u"a.md:3"_s);
    }

    void anEmptyDocumentIsNull()
    {
        QVERIFY(yaml(QString()).isNull());
        QVERIFY(yaml(u"# only a comment\n\n"_s).isNull());
    }

    // --- errors ------------------------------------------------------------

    void errorsNameTheFileAndLine_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("expected");
        QTest::newRow("tab indentation") << u"a:\n\tb: 1\n"_s << u"agent.md:3: a tab is used for indentation"_s;
        QTest::newRow("unclosed quote") << u"a: 1\nb: \"open\nc: 2\n"_s << u"agent.md:3: a quoted value is never closed"_s;
        QTest::newRow("duplicate key") << u"a: 1\na: 2\n"_s << u"agent.md:3: the key \"a\" is given twice"_s;
        QTest::newRow("over-indented key") << u"a: 1\n   b: 2\nc:\n  d: 1\n    e: 2\n"_s
                                            << u"agent.md:3: \": \" cannot stand here: the line is indented too far"_s;
        QTest::newRow("not a key") << u"a: 1\njust words\n"_s << u"agent.md:3: expected a \"key: value\" line"_s;
        QTest::newRow("stray list item") << u"a:\n  b: 1\n  - c\n"_s << u"agent.md:4: this line does not fit the structure above it"_s;
        QTest::newRow("unclosed flow") << u"a: [1, 2\nb: 3\n"_s << u"agent.md:2: a [ or { is never closed"_s;
        QTest::newRow("unclosed single quote") << u"a: 1\nb: 'open\nc: 2\n"_s
                                               << u"agent.md:3: a quoted value is never closed"_s;
        QTest::newRow("unclosed quote after unicode") << u"描述: \"open\nc: 2\n"_s
                                                      << u"agent.md:2: a quoted value is never closed"_s;
        QTest::newRow("not a key, windows lines") << u"a: 1\r\njust words\r\n"_s
                                                  << u"agent.md:3: expected a \"key: value\" line"_s;
        QTest::newRow("unclosed flow map") << u"a: 1\nb: {c: 1,\n  d: 2\ne: 3\n"_s
                                           << u"agent.md:3: a [ or { is never closed"_s;
        QTest::newRow("not a key, last line") << u"a: 1\njust words"_s << u"agent.md:3: expected a \"key: value\" line"_s;
        QTest::newRow("not a key, unicode") << u"描述: 值\n代码 审查\n"_s << u"agent.md:3: expected a \"key: value\" line"_s;
        QTest::newRow("anchor") << u"a: &anchor 1\n"_s << u"agent.md:2: YAML anchors (&), aliases (*) and tags (!)"_s;
        QTest::newRow("alias") << u"a: 1\nb: [x, *a]\n"_s << u"agent.md:3: YAML anchors (&), aliases (*) and tags (!)"_s;
        QTest::newRow("tag") << u"a: !!str 1\n"_s << u"agent.md:2: YAML anchors (&), aliases (*) and tags (!)"_s;
        QTest::newRow("map as key") << u"? {a: 1}\n: b\n"_s << u"agent.md:2: a key must be a plain text"_s;
        QTest::newRow("text after quote") << u"a: \"x\" y\n"_s << u"agent.md:2: this line does not fit"_s;
        QTest::newRow("bad escape") << u"a: \"\\q\"\n"_s << u"agent.md:2: an unknown escape \\q"_s;
        QTest::newRow("dedent into nothing") << u"  a: 1\nb: 2\n"_s << u"agent.md:3: this line does not fit"_s;
    }

    void errorsNameTheFileAndLine()
    {
        QFETCH(QString, text);
        QFETCH(QString, expected);
        const QString error = yamlError(text);
        QVERIFY2(error.startsWith(expected), qPrintable(u"got: "_s + error));
    }

    void anAliasBombIsRefusedBeforeItExpands()
    {
        // "Billion laughs": nine levels of ten aliases each would be 10^9
        // strings if aliases were expanded.
        QString text = u"a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]\n"_s;
        for (int level = 1; level <= 9; ++level) {
            QStringList refs;
            for (int i = 0; i < 10; ++i)
                refs.append(u"*a%1"_s.arg(level - 1));
            text += u"a%1: &a%1 [%2]\n"_s.arg(level).arg(refs.join(u", "_s));
        }
        QVERIFY(yamlError(text).startsWith(u"agent.md:2: YAML anchors (&), aliases (*)"_s));
    }

    void deepNestingIsRefusedInsteadOfExhaustingTheStack()
    {
        const QString brackets = QString(5000, QLatin1Char('[')) + QString(5000, QLatin1Char(']'));
        QVERIFY(yamlError(u"a: "_s + brackets + u"\n"_s).contains(u"nested too deeply"_s));
        QVERIFY(yamlError(u"a:\n"_s + QString(100, QLatin1Char(' ')) + u"- - - - - - - - - - - - - - - - - - - - - - - "
                                                                         u"- - - - - - - - - - - - - - - - - - - - - - - "
                                                                         u"- - - - - - - - - - - - - - - - - - - - - - x\n"_s)
                    .contains(u"nested too deeply"_s));
    }

    void damagedInputEndsWithAValueOrAnErrorNeverACrash()
    {
        // Every prefix and many random mutations of a realistic front
        // matter: each parse must return (a value or an error) quickly.
        const QString sample = u"description: \"Reviews: code\"\nmode: subagent\ntools:\n  write: false\n"
                               u"permission:\n  bash:\n    \"git *\": allow\n    '*': ask\nitems: [a, {b: c}]\n"
                               u"prompt: |-\n  line\n\n  more\nlist:\n- x\n- y: 1\n  z: [2, 3]\n"_s;
        for (qsizetype n = 0; n <= sample.size(); ++n)
            (void)YamlReader::parse(sample.left(n), u"f.md"_s);
        const QString alphabet = u" \n-:#'\"[]{},|>&*!\\\tab1"_s;
        QRandomGenerator random(20260303);
        for (int round = 0; round < 3000; ++round) {
            QString text = sample;
            const int edits = 1 + int(random.bounded(6));
            for (int e = 0; e < edits; ++e) {
                const qsizetype at = random.bounded(text.size() + 1);
                const QChar c = alphabet.at(random.bounded(alphabet.size()));
                switch (random.bounded(3)) {
                case 0: text.insert(at, c); break;
                case 1: if (at < text.size()) text.remove(at, 1); break;
                default: if (at < text.size()) text[at] = c; break;
                }
            }
            (void)YamlReader::parse(text, u"f.md"_s);
        }
    }

    // --- front matter --------------------------------------------------------

    void frontMatterAndBodyAreSeparated()
    {
        const Result<MarkdownDocument> doc =
            FrontMatter::parse(u"---\ndescription: Reviews\nmode: subagent\n---\n\nYou review.\n"_s, u"r.md"_s);
        QVERIFY(doc);
        QCOMPARE(doc->data, object(R"({"description":"Reviews","mode":"subagent"})"));
        QCOMPARE(doc->body, u"\nYou review.\n"_s);
        QCOMPARE(doc->sourceMap.describe({u"mode"_s}), u"r.md:3"_s);
    }

    void aFileWithoutFrontMatterIsAllBody()
    {
        const Result<MarkdownDocument> doc = FrontMatter::parse(u"# Title\n\ntext\n"_s, u"r.md"_s);
        QVERIFY(doc);
        QVERIFY(doc->data.isEmpty());
        QCOMPARE(doc->body, u"# Title\n\ntext\n"_s);
    }

    void emptyFrontMatterAndWindowsLineEndings()
    {
        const Result<MarkdownDocument> empty = FrontMatter::parse(u"---\n---\nBody"_s, u"r.md"_s);
        QVERIFY(empty);
        QVERIFY(empty->data.isEmpty());
        QCOMPARE(empty->body, u"Body"_s);
        const Result<MarkdownDocument> crlf = FrontMatter::parse(u"\ufeff---\r\nmode: all\r\n---\r\nBody\r\n"_s, u"r.md"_s);
        QVERIFY(crlf);
        QCOMPARE(crlf->data.value("mode"_L1), QJsonValue(u"all"_s));
        QCOMPARE(crlf->body, u"Body\r\n"_s);
    }

    void anUnclosedFrontMatterIsAnError()
    {
        const Result<MarkdownDocument> doc = FrontMatter::parse(u"---\nmode: all\nBody\n"_s, u"r.md"_s);
        QVERIFY(!doc);
        QVERIFY2(doc.errorMessage().startsWith(u"r.md:1: "_s), qPrintable(doc.errorMessage()));
    }

    void frontMatterMustBeAMap()
    {
        const Result<MarkdownDocument> doc = FrontMatter::parse(u"---\n- a\n- b\n---\n"_s, u"r.md"_s);
        QVERIFY(!doc);
        QVERIFY2(doc.errorMessage().startsWith(u"r.md:2: "_s), qPrintable(doc.errorMessage()));
    }

    void yamlErrorsCountLinesFromTheTopOfTheFile()
    {
        const Result<MarkdownDocument> doc = FrontMatter::parse(u"---\na: 1\nb: [\n---\nBody\n"_s, u"/p/r.md"_s);
        QVERIFY(!doc);
        QVERIFY2(doc.errorMessage().startsWith(u"/p/r.md:3: "_s), qPrintable(doc.errorMessage()));
    }

    void aMissingFileIsAnErrorNamingIt()
    {
        const Result<MarkdownDocument> doc = FrontMatter::read(u"/nonexistent/qcode/agent.md"_s);
        QVERIFY(!doc);
        QVERIFY(doc.errorMessage().contains(u"/nonexistent/qcode/agent.md"_s));
    }
};

QTEST_GUILESS_MAIN(TestFrontMatter)
#include "tst_front_matter.moc"
