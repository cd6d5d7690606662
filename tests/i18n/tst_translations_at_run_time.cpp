#include <QCoreApplication>
#include <QJsonObject>
#include <QTest>
#include <QTranslator>

#include <QCoro/QCoroTask>

#include "RecordingEventSink.h"
#include "TempDatabase.h"
#include "engine/session/compaction/SessionCompaction.h"
#include "engine/session/loop/TitleGenerator.h"
#include "ui/chat/tool/ToolCardHeader.h"
#include "ui/chat/tool/ToolPresentation.h"
#include "ui/settings/KeychainMessages.h"

using namespace Qt::StringLiterals;
using namespace qcode;
using namespace qcode::test;

namespace {

// Set by tests/i18n/CMakeLists.txt: where the qcode target's .qm files are built.
const QString QmDir = QStringLiteral(QCODE_QM_DIR);

ToolPart readTool(const QString &path, const QString &output)
{
    const QJsonObject input = path.isEmpty() ? QJsonObject() : QJsonObject{{"filePath"_L1, path}};
    return ToolPart{u"call_1"_s, u"read"_s, ToolCompleted{input, output, QString(), QJsonObject(), 0, 5, {}, {}}, {},
                    {}};
}

} // namespace

// A string is translated only when the context lupdate files it under is
// the one tr() asks for at run time. These texts once went astray — an
// alias (Tr::tr), a helper with its own context, a wrapper lupdate could not
// see — and are looked up here with the Chinese translation installed.
class TranslationsAtRunTimeTest : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase();
    void toolTitlesAreTranslated();
    void titleAndCompactionErrorsAreTranslated();
    void keychainMessagesAreTranslated();
    void aWidgetClassTranslatesUnderItsQualifiedName();

private:
    QTranslator m_chinese;
};

void TranslationsAtRunTimeTest::initTestCase()
{
    QVERIFY2(m_chinese.load(u"qcode_zh_CN"_s, QmDir), qPrintable(QmDir));
    QVERIFY(QCoreApplication::installTranslator(&m_chinese));
}

void TranslationsAtRunTimeTest::cleanupTestCase()
{
    QCoreApplication::removeTranslator(&m_chinese);
}

void TranslationsAtRunTimeTest::toolTitlesAreTranslated()
{
    const ToolPresentation shown =
        presentTool(readTool(u"/home/ada/project/src/main.cpp"_s, u"1: int main()\n2: {\n3: }\n"_s),
                    u"/home/ada/project"_s);
    QCOMPARE(shown.title, u"读取 src/main.cpp"_s);
    QCOMPARE(shown.subtitle, u"3 行"_s);
    QCOMPARE(presentTool(readTool({}, {}), {}).title, u"读取文件"_s);
}

void TranslationsAtRunTimeTest::titleAndCompactionErrorsAreTranslated()
{
    TempDatabase database;
    const std::unique_ptr<Store> store = database.open();
    QVERIFY(store);
    RecordingEventSink sink;

    SessionCompaction::Request request;
    request.sessionID = u"ses_missing"_s;
    const Result<MessageWithParts> compacted = SessionCompaction::create(*store, sink, request);
    QVERIFY(!compacted);
    QCOMPARE(compacted.errorMessage(), u"没有可压缩的会话 ses_missing。"_s);

    const auto neverCalled = [](QObject *, QList<ModelMessage>) -> Result<ProviderCall *> {
        return Error{u"no call expected"_s};
    };
    std::optional<Result<QString>> named;
    QCoro::connect(TitleGenerator::generate(*store, sink, u"ses_missing"_s, neverCalled), this,
                   [&named](const Result<QString> &result) { named = result; });
    QTRY_VERIFY(named.has_value());
    QVERIFY(!*named);
    QCOMPARE(named->errorMessage(), u"没有可命名的会话 ses_missing。"_s);
}

void TranslationsAtRunTimeTest::keychainMessagesAreTranslated()
{
    QCOMPARE(KeychainMessages::unreadable({}), u"无法读取系统钥匙串。密钥仍可来自环境变量。"_s);
    QCOMPARE(KeychainMessages::sentence(u"Unknown error"_s), u"Unknown error。"_s);
}

void TranslationsAtRunTimeTest::aWidgetClassTranslatesUnderItsQualifiedName()
{
    // A Q_OBJECT class asks under "qcode::ToolCardHeader", as lupdate files it.
    QCOMPARE(ToolCardHeader::tr("%1, %2", "a tool call's title, then its status").arg(u"A"_s, u"B"_s), u"A，B"_s);
}

QTEST_MAIN(TranslationsAtRunTimeTest)
#include "tst_translations_at_run_time.moc"
