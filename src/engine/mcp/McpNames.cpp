#include "McpNames.h"

using namespace Qt::StringLiterals;

namespace qcode::McpNames {

QString sanitize(const QString &name)
{
    QString out = name;
    for (QChar &c : out) {
        const char16_t u = c.unicode();
        const bool kept = (u >= u'a' && u <= u'z') || (u >= u'A' && u <= u'Z') || (u >= u'0' && u <= u'9') || u == u'_'
            || u == u'-';
        if (!kept)
            c = u'_';
    }
    return out;
}

QString toolKey(const QString &server, const QString &tool)
{
    return sanitize(server) + u'_' + sanitize(tool);
}

QJsonObject inputSchema(const QJsonObject &tool)
{
    QJsonObject schema = tool.value("inputSchema"_L1).toObject();
    schema.insert(u"type"_s, u"object"_s);
    if (!schema.value("properties"_L1).isObject())
        schema.insert(u"properties"_s, QJsonObject());
    schema.insert(u"additionalProperties"_s, false);
    return schema;
}

} // namespace qcode::McpNames
