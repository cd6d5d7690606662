// Agent and command front matter against arbitrary bytes: reading never
// crashes and ends in a value or an error that names the file and a line
// of the text; every key of a value points at a line of the text.
#include <QJsonObject>
#include <QString>

#include "FuzzTarget.h"
#include "engine/agent/FrontMatter.h"

using namespace Qt::StringLiterals;
using namespace qcode;

namespace {

int lineOf(const QString &location, const QString &file)
{
    if (!location.startsWith(file + u':'))
        return -1;
    bool ok = false;
    const int line = location.mid(file.size() + 1).section(u':', 0, 0).toInt(&ok);
    return ok ? line : -1;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const QString file = u"f.md"_s;
    const QString text = QString::fromUtf8(reinterpret_cast<const char *>(data), qsizetype(size));
    const int lines = int(text.count(u'\n')) + 1;
    const Result<MarkdownDocument> document = FrontMatter::parse(text, file);
    if (!document) {
        const int line = lineOf(document.errorMessage(), file);
        FUZZ_CHECK(line >= 1 && line <= lines);
        return 0;
    }
    for (const QString &key : document->sourceMap.orderedKeys({}, document->data)) {
        const int line = lineOf(document->sourceMap.describe({key}), file);
        FUZZ_CHECK(line >= 1 && line <= lines);
    }
    return 0;
}
