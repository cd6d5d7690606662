// What a tools/call result becomes for the model and the card, checked on
// the real answers of server-everything in the shared transcript
// (reference §5, §10): text joined by blank lines, embedded resources'
// text, images as attachments, resource_link as "name (uri)",
// structuredContent as JSON when nothing else is text, isError a failure.
// And OpenCode's tool names and schemas.

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTest>

#include "engine/mcp/McpNames.h"
#include "engine/mcp/McpToolResult.h"

using namespace Qt::StringLiterals;
using namespace qcode;

class TestMcpToolResults : public QObject
{
    Q_OBJECT

    QList<QJsonObject> m_transcript;

    // The result of the server-to-client line `seq` of session 1.
    QJsonObject recorded(int seq) const
    {
        for (const QJsonObject &line : m_transcript) {
            if (line.value("session"_L1).toInt() == 1 && line.value("seq"_L1).toInt() == seq)
                return line.value("msg"_L1).toObject().value("result"_L1).toObject();
        }
        return {};
    }

    static const ToolOutput *output(const ToolResult &result) { return std::get_if<ToolOutput>(&result); }

private Q_SLOTS:
    void initTestCase()
    {
        const QString shared = qEnvironmentVariable("QCODE_SHARED_DIR");
        QFile file(shared + u"/fixtures/mcp/mcp-transcript.jsonl"_s);
        if (shared.isEmpty() || !file.open(QIODevice::ReadOnly))
            return;
        for (const QByteArray &line : file.readAll().split('\n')) {
            if (!line.trimmed().isEmpty())
                m_transcript.append(QJsonDocument::fromJson(line).object());
        }
    }

    void init()
    {
        const QString function = QString::fromLatin1(QTest::currentTestFunction());
        if (m_transcript.isEmpty() && function.startsWith("recorded"_L1))
            QSKIP("the shared MCP transcript (QCODE_SHARED_DIR/fixtures/mcp) is not here");
    }

    void recordedTextIsTheOutput()
    {
        const ToolResult result = McpToolResult::convert(recorded(11));
        QVERIFY(output(result));
        QCOMPARE(output(result)->output, u"The sum of 2 and 40 is 42."_s);
        QVERIFY(output(result)->attachments.isEmpty());
    }

    void recordedImageIsAnAttachment()
    {
        const QJsonObject raw = recorded(13);
        const ToolResult result = McpToolResult::convert(raw);
        QVERIFY(output(result));
        QCOMPARE(output(result)->output, u"Here's the image you requested:\n\nThe image above is the MCP logo."_s);
        QCOMPARE(output(result)->attachments.size(), 1);
        const FilePart &image = output(result)->attachments.first();
        QCOMPARE(image.mime, u"image/png"_s);
        const QString data = raw.value("content"_L1).toArray().at(1).toObject().value("data"_L1).toString();
        QCOMPARE(data.size(), 5380);
        QCOMPARE(image.url, u"data:image/png;base64,"_s + data);
    }

    void recordedEmbeddedResourceTextJoinsTheOutput()
    {
        const ToolResult result = McpToolResult::convert(recorded(15));
        QVERIFY(output(result));
        const QStringList blocks = output(result)->output.split(u"\n\n"_s);
        QCOMPARE(blocks.size(), 3);
        QCOMPARE(blocks.at(0), u"Returning resource reference for Resource 1:"_s);
        QVERIFY(blocks.at(1).startsWith(u"Resource 1: This is a plaintext resource"_s));
        QCOMPARE(blocks.at(2), u"You can access this resource using the URI: demo://resource/dynamic/text/1"_s);
    }

    void recordedResourceLinksAreNameAndUri()
    {
        const ToolResult result = McpToolResult::convert(recorded(17));
        QVERIFY(output(result));
        QCOMPARE(output(result)->output,
                 u"Here are 2 resource links to resources available in this server:\n\n"
                 "Blob Resource 1 (demo://resource/dynamic/blob/1)\n\n"
                 "Text Resource 2 (demo://resource/dynamic/text/2)"_s);
    }

    void recordedStructuredContentYieldsToText()
    {
        // The server gave both: the text stands.
        const ToolResult result = McpToolResult::convert(recorded(19));
        QVERIFY(output(result));
        QCOMPARE(output(result)->output, u"{\"temperature\":33,\"conditions\":\"Cloudy\",\"humidity\":82}"_s);
    }

    void recordedIsErrorIsAFailure()
    {
        const ToolResult result = McpToolResult::convert(recorded(21));
        const auto *failure = std::get_if<ToolFailure>(&result);
        QVERIFY(failure);
        QCOMPARE(failure->message, u"MCP error -32602: Tool no-such-tool not found"_s);
        QCOMPARE(failure->kind, ToolFailure::Kind::Failed);
    }

    void structuredContentAloneBecomesJsonText()
    {
        const QJsonObject raw{{u"content"_s, QJsonArray()},
                              {u"structuredContent"_s, QJsonObject{{u"b"_s, 2}, {u"a"_s, QJsonArray{1, u"x"_s}}}}};
        const ToolResult result = McpToolResult::convert(raw);
        QVERIFY(output(result));
        QCOMPARE(output(result)->output, u"{\"a\":[1,\"x\"],\"b\":2}"_s);
    }

    void aBlobResourceIsAnAttachmentNamedByItsUri()
    {
        const QJsonObject blob{{u"type"_s, u"resource"_s},
                               {u"resource"_s, QJsonObject{{u"uri"_s, u"file:///a.gz"_s}, {u"blob"_s, u"H4sI"_s}}}};
        const QJsonObject audio{{u"type"_s, u"audio"_s}, {u"data"_s, u"AAAA"_s}, {u"mimeType"_s, u"audio/wav"_s}};
        const ToolResult result = McpToolResult::convert(QJsonObject{{u"content"_s, QJsonArray{blob, audio}}});
        QVERIFY(output(result));
        QCOMPARE(output(result)->output, QString());
        QCOMPARE(output(result)->attachments.size(), 1);
        QCOMPARE(output(result)->attachments.first().mime, u"application/octet-stream"_s);
        QCOMPARE(output(result)->attachments.first().filename, std::optional<QString>(u"file:///a.gz"_s));
        QCOMPARE(output(result)->attachments.first().url, u"data:application/octet-stream;base64,H4sI"_s);
    }

    void anErrorWithoutTextStillSaysSomething()
    {
        const ToolResult result = McpToolResult::convert(QJsonObject{{u"content"_s, QJsonArray()}, {u"isError"_s, true}});
        const auto *failure = std::get_if<ToolFailure>(&result);
        QVERIFY(failure);
        QVERIFY(!failure->message.isEmpty());
    }

    void namesAreSanitisedAsOpenCodeDoes()
    {
        QCOMPARE(McpNames::toolKey(u"everything"_s, u"get-tiny-image"_s), u"everything_get-tiny-image"_s);
        QCOMPARE(McpNames::toolKey(u"my server.v2"_s, u"files/read:all"_s), u"my_server_v2_files_read_all"_s);
        QCOMPARE(McpNames::sanitize(u"ünï"_s), u"_n_"_s);
    }

    void schemasAreForcedToClosedObjects()
    {
        const QJsonObject tool{{u"name"_s, u"t"_s},
                               {u"inputSchema"_s, QJsonObject{{u"$schema"_s, u"http://json-schema.org/draft-07/schema#"_s},
                                                              {u"type"_s, u"object"_s},
                                                              {u"additionalProperties"_s, true},
                                                              {u"required"_s, QJsonArray{u"a"_s}},
                                                              {u"properties"_s, QJsonObject{{u"a"_s, QJsonObject{{u"type"_s, u"string"_s}}}}}}}};
        const QJsonObject schema = McpNames::inputSchema(tool);
        QCOMPARE(schema.value("additionalProperties"_L1), QJsonValue(false));
        QCOMPARE(schema.value("$schema"_L1).toString(), u"http://json-schema.org/draft-07/schema#"_s);
        QCOMPARE(schema.value("required"_L1).toArray(), QJsonArray{u"a"_s});
        const QJsonObject bare = McpNames::inputSchema(QJsonObject{{u"name"_s, u"t"_s}});
        QCOMPARE(bare, (QJsonObject{{u"type"_s, u"object"_s}, {u"properties"_s, QJsonObject()}, {u"additionalProperties"_s, false}}));
    }
};

QTEST_GUILESS_MAIN(TestMcpToolResults)
#include "tst_mcp_tool_results.moc"
