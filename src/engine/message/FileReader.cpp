#include "FileReader.h"

#include <QCollator>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QLocale>
#include <QMimeDatabase>
#include <QStringDecoder>

#include <algorithm>
#include <functional>

#include "DataUrl.h"
#include "MessageLogging.h"

using namespace Qt::StringLiterals;

namespace qcode {
namespace {

constexpr qint64 BinarySampleBytes = 4096;
constexpr qint64 ReadChunkBytes = 64 * 1024;
constexpr int PreviewLines = 20;
// A line longer than MaxLineLength UTF-16 units is cut; every unit takes at
// most three UTF-8 bytes, so this many bytes always decode to more than the
// cut keeps, and a line of a gigabyte costs no more memory than that.
constexpr qsizetype KeptLineBytes = FileReader::MaxLineLength * 3 + 4;

const QString LineSuffix = u"... (line truncated to %1 chars)"_s.arg(FileReader::MaxLineLength);
const QString BytesLabel = u"%1 KB"_s.arg(FileReader::MaxBytes / 1024);

bool hasBinaryExtension(const QString &path)
{
    static const QStringList extensions = {
        u"zip"_s, u"tar"_s, u"gz"_s,   u"exe"_s,  u"dll"_s, u"so"_s,  u"class"_s, u"jar"_s, u"war"_s, u"7z"_s,
        u"doc"_s, u"docx"_s, u"xls"_s, u"xlsx"_s, u"ppt"_s, u"pptx"_s, u"odt"_s, u"ods"_s,  u"odp"_s, u"bin"_s,
        u"dat"_s, u"obj"_s, u"o"_s,    u"a"_s,    u"lib"_s, u"wasm"_s, u"pyc"_s,  u"pyo"_s};
    // Node's extname: the text after the last dot of the base name, unless
    // that dot starts the name.
    const QString base = QFileInfo(path).fileName();
    const qsizetype dot = base.lastIndexOf(u'.');
    if (dot <= 0)
        return false;
    return extensions.contains(base.mid(dot + 1).toLower());
}

// Drops an incomplete UTF-8 sequence at the end of a line that was cut at
// KeptLineBytes, so the cut is not mistaken for an encoding error.
void trimPartialCharacter(QByteArray &bytes)
{
    qsizetype continuation = 0;
    while (continuation < 3 && continuation < bytes.size()
           && (uchar(bytes.at(bytes.size() - 1 - continuation)) & 0xC0) == 0x80)
        ++continuation;
    const qsizetype leadIndex = bytes.size() - 1 - continuation;
    if (leadIndex < 0)
        return;
    const uchar lead = uchar(bytes.at(leadIndex));
    const int needed = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 1;
    if (needed > continuation + 1)
        bytes.truncate(leadIndex);
}

// The lines of a file as Node's readline gives them (LF, CRLF or a lone CR
// ends a line; a final line without a terminator counts when not empty),
// each passed as at most KeptLineBytes bytes plus whether more was dropped.
// The callback returns false to stop.
using LineSink = std::function<bool(QByteArray &line, bool cut)>;

Result<void> scanLines(QFile &file, const LineSink &sink)
{
    QByteArray line;
    bool cut = false;
    bool afterCR = false;
    const auto take = [&](const char *begin, const char *end) {
        const qsizetype room = KeptLineBytes - line.size();
        if (end - begin > room) {
            line.append(begin, room);
            cut = true;
        } else {
            line.append(begin, end - begin);
        }
    };
    const auto finish = [&] {
        const bool go = sink(line, cut);
        line.clear();
        cut = false;
        return go;
    };
    while (true) {
        const QByteArray chunk = file.read(ReadChunkBytes);
        if (chunk.isEmpty()) {
            if (file.error() != QFileDevice::NoError)
                return Error{file.errorString()};
            break;
        }
        const char *p = chunk.constData();
        const char *end = p + chunk.size();
        if (afterCR && *p == '\n')
            ++p;
        afterCR = false;
        while (p < end) {
            const char *stop = std::find_if(p, end, [](char c) { return c == '\n' || c == '\r'; });
            take(p, stop);
            if (stop == end)
                break;
            if (!finish())
                return {};
            p = stop + 1;
            if (*stop == '\r') {
                if (p == end)
                    afterCR = true;
                else if (*p == '\n')
                    ++p;
            }
        }
    }
    if (!line.isEmpty() || cut)
        finish();
    return {};
}

struct TextWindow {
    QStringList lines;
    qint64 count = 0;
    bool more = false;
    bool capped = false;
    bool invalidUtf8 = false;
};

} // namespace

FileReader::FileReader(QString directory, QString worktree)
    : m_directory(QDir::cleanPath(std::move(directory)))
    , m_worktree(QDir::cleanPath(std::move(worktree)))
{
}

QString FileReader::absolutePath(const QString &filePath) const
{
    return QDir::cleanPath(QDir(m_directory).absoluteFilePath(filePath));
}

bool FileReader::isExternal(const QString &absolutePath) const
{
    // Symlinks and ".." are resolved where the file exists, so a link out of
    // the project counts as outside.
    const QFileInfo info(absolutePath);
    const QString path = info.exists() ? info.canonicalFilePath() : QDir::cleanPath(absolutePath);
    const auto inside = [&path](const QString &root) {
        const QString canonical = QFileInfo(root).canonicalFilePath();
        const QString base = canonical.isEmpty() ? root : canonical;
        return path == base || path.startsWith(base.endsWith(u'/') ? base : base + u'/');
    };
    // A worktree of "/" means "no worktree" (OpenCode outside a repository).
    return !inside(m_directory) && (m_worktree == "/"_L1 || !inside(m_worktree));
}

QString FileReader::mimeType(const QString &filePath)
{
    static const QMimeDatabase database;
    return database.mimeTypeForFile(filePath, QMimeDatabase::MatchExtension).name();
}

bool FileReader::isAttachmentMime(const QString &mime)
{
    // SVG is text a model can read; "image/vnd.fastbidsheet" is what some
    // tables call FlatBuffers schemas (.fbs), which are text too.
    if (mime == "application/pdf"_L1)
        return true;
    return mime.startsWith("image/"_L1) && mime != "image/svg+xml"_L1 && mime != "image/vnd.fastbidsheet"_L1;
}

QString FileReader::title(const QString &path) const
{
    return QDir::fromNativeSeparators(QDir(m_worktree).relativeFilePath(path));
}

Result<FileReadResult> FileReader::read(const FileReadRequest &request) const
{
    if (request.offset && *request.offset < 1)
        return Error{QStringLiteral("offset must be greater than or equal to 1")};
    // OpenCode accepts any limit and then shows nothing; a clear refusal
    // tells the model what to fix.
    if (request.limit && *request.limit < 1)
        return Error{QStringLiteral("limit must be greater than or equal to 1")};
    if (request.filePath.isEmpty())
        return Error{QStringLiteral("filePath must name a file or directory")};

    const QString path = absolutePath(request.filePath);
    const QFileInfo info(path);
    const qint64 offset = request.offset.value_or(1);
    const qint64 limit = request.limit.value_or(DefaultLimit);
    qCDebug(lcMessage) << "read" << path << "offset" << offset << "limit" << limit;

    if (!info.exists())
        return notFound(path);

    Result<FileReadResult> result = [&]() -> Result<FileReadResult> {
        if (info.isDir())
            return listDirectory(path, offset, limit);
        // A FIFO or a device would block or never end.
        if (!info.isFile())
            return Error{QStringLiteral("Cannot read %1: it is not a regular file").arg(path)};
        const QString mime = mimeType(path);
        if (isAttachmentMime(mime))
            return attach(path, mime);
        const auto binary = isBinary(path, info.size());
        if (!binary)
            return binary.error();
        if (*binary)
            return Error{QStringLiteral("Cannot read binary file: %1").arg(path)};
        return readText(path, offset, limit);
    }();
    if (result)
        result->metadata.insert("external"_L1, isExternal(path));
    return result;
}

Error FileReader::notFound(const QString &path) const
{
    const QFileInfo info(path);
    const QString base = info.fileName().toLower();
    QStringList suggestions;
    // Sorted, unlike OpenCode's directory order, so the same miss always
    // suggests the same files.
    const QStringList names = info.dir().entryList(QDir::AllEntries | QDir::Hidden | QDir::System
                                                       | QDir::NoDotAndDotDot,
                                                   QDir::Name);
    for (const QString &name : names) {
        const QString lower = name.toLower();
        if (lower.contains(base) || base.contains(lower))
            suggestions.append(info.dir().filePath(name));
        if (suggestions.size() == MaxSuggestions)
            break;
    }
    if (suggestions.isEmpty())
        return Error{QStringLiteral("File not found: %1").arg(path)};
    return Error{QStringLiteral("File not found: %1\n\nDid you mean one of these?\n%2").arg(path, suggestions.join(u'\n'))};
}

Result<FileReadResult> FileReader::listDirectory(const QString &path, qint64 offset, qint64 limit) const
{
    const QDir dir(path);
    if (!dir.isReadable())
        return Error{QStringLiteral("Cannot list %1: permission denied").arg(path)};
    QStringList entries;
    const QFileInfoList infos =
        dir.entryInfoList(QDir::AllEntries | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot, QDir::NoSort);
    for (const QFileInfo &entry : infos)
        entries.append(entry.isDir() ? entry.fileName() + u'/' : entry.fileName()); // isDir follows symlinks
    // JavaScript's localeCompare in an English locale.
    QCollator collator{QLocale(QLocale::English)};
    std::sort(entries.begin(), entries.end(),
              [&collator](const QString &a, const QString &b) { return collator.compare(a, b) < 0; });

    const qint64 total = entries.size();
    const qint64 start = std::min(offset - 1, total);
    const QStringList shown = entries.mid(start, std::min(limit, total - start));
    const bool truncated = start + shown.size() < total;

    // The read tool's text is the model's protocol, not the person's: it is
    // not translated.
    QStringList out{u"<path>%1</path>"_s.arg(path), u"<type>directory</type>"_s, u"<entries>"_s,
                    shown.join(u'\n')};
    if (truncated)
        out.append(u"\n(Showing %1 of %2 entries. Use 'offset' parameter to read beyond entry %3)"_s.arg(
            QString::number(shown.size()), QString::number(total), QString::number(offset + shown.size())));
    else
        out.append(u"\n(%1 entries)"_s.arg(total));
    out.append(u"</entries>"_s);

    FileReadResult result;
    result.title = title(path);
    result.output = out.join(u'\n');
    result.metadata = QJsonObject{{"preview"_L1, shown.mid(0, PreviewLines).join(u'\n')},
                                  {"truncated"_L1, truncated},
                                  {"loaded"_L1, QJsonArray{}}};
    return result;
}

Result<QByteArray> FileReader::readBytes(const QString &filePath) const
{
    const QString path = absolutePath(filePath);
    const QFileInfo info(path);
    if (!info.exists())
        return notFound(path);
    if (!info.isFile())
        return Error{QStringLiteral("Cannot read %1: it is not a regular file").arg(path)};
    if (info.size() > MaxAttachmentBytes)
        return Error{QStringLiteral("%1 is too large to attach (%2 MB; the limit is %3 MB)")
                         .arg(path)
                         .arg(double(info.size()) / (1024 * 1024), 0, 'f', 1)
                         .arg(MaxAttachmentBytes / (1024 * 1024))};
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return Error{QStringLiteral("Cannot open %1: %2").arg(path, file.errorString())};
    QByteArray bytes = file.readAll();
    if (file.error() != QFileDevice::NoError)
        return Error{QStringLiteral("Cannot read %1: %2").arg(path, file.errorString())};
    return bytes;
}

Result<FileReadResult> FileReader::attach(const QString &path, const QString &mime) const
{
    auto bytes = readBytes(path);
    if (!bytes)
        return bytes.error();
    const QString message = mime == "application/pdf"_L1 ? u"PDF read successfully"_s : u"Image read successfully"_s;
    FileReadResult result;
    result.title = title(path);
    result.output = message;
    result.metadata =
        QJsonObject{{"preview"_L1, message}, {"truncated"_L1, false}, {"loaded"_L1, QJsonArray{}}};
    result.attachments.append(
        FilePart{mime, std::nullopt, DataUrl::encode(mime, *bytes), std::nullopt});
    return result;
}

Result<bool> FileReader::isBinary(const QString &path, qint64 size) const
{
    if (hasBinaryExtension(path))
        return true;
    if (size == 0)
        return false;
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return Error{QStringLiteral("Cannot open %1: %2").arg(path, file.errorString())};
    const QByteArray sample = file.read(std::min(BinarySampleBytes, size));
    if (sample.isEmpty())
        return false;
    qsizetype unprintable = 0;
    for (const char c : sample) {
        const uchar b = uchar(c);
        if (b == 0)
            return true;
        if (b < 9 || (b > 13 && b < 32))
            ++unprintable;
    }
    return double(unprintable) / double(sample.size()) > 0.3;
}

Result<FileReadResult> FileReader::readText(const QString &path, qint64 offset, qint64 limit) const
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return Error{QStringLiteral("Cannot open %1: %2").arg(path, file.errorString())};

    TextWindow window;
    qsizetype bytes = 0;
    const qint64 skip = offset - 1;
    const auto scanned = scanLines(file, [&](QByteArray &raw, bool cut) {
        ++window.count;
        if (window.count <= skip)
            return true;
        if (window.lines.size() >= limit) {
            // Keep counting: the footer names the file's length.
            window.more = true;
            return true;
        }
        if (cut)
            trimPartialCharacter(raw);
        QStringDecoder decoder(QStringDecoder::Utf8, QStringDecoder::Flag::Stateless);
        QString text = decoder.decode(raw);
        if (decoder.hasError())
            window.invalidUtf8 = true;
        if (cut || text.size() > MaxLineLength)
            text = text.left(MaxLineLength) + LineSuffix;
        const qsizetype size = text.toUtf8().size() + (window.lines.isEmpty() ? 0 : 1);
        if (bytes + size > MaxBytes) {
            window.capped = true;
            window.more = true;
            return false;
        }
        window.lines.append(text);
        bytes += size;
        return true;
    });
    if (!scanned)
        return Error{QStringLiteral("Cannot read %1: %2").arg(path, scanned.errorMessage())};

    if (window.count < offset && !(window.count == 0 && offset == 1))
        return Error{QStringLiteral("Offset %1 is out of range for this file (%2 lines)").arg(offset).arg(window.count)};

    // The model's protocol, exactly as OpenCode writes it; not translated.
    QString output = u"<path>%1</path>\n<type>file</type>\n<content>\n"_s.arg(path);
    for (qsizetype i = 0; i < window.lines.size(); ++i) {
        if (i > 0)
            output += u'\n';
        output += QString::number(offset + i) + u": "_s + window.lines.at(i);
    }
    const qint64 last = offset + window.lines.size() - 1;
    if (window.capped)
        output += u"\n\n(Output capped at %1. Showing lines %2-%3. Use offset=%4 to continue.)"_s.arg(
            BytesLabel, QString::number(offset), QString::number(last), QString::number(last + 1));
    else if (window.more)
        output += u"\n\n(Showing lines %1-%2 of %3. Use offset=%4 to continue.)"_s.arg(
            QString::number(offset), QString::number(last), QString::number(window.count), QString::number(last + 1));
    else
        output += u"\n\n(End of file - total %1 lines)"_s.arg(window.count);
    output += u"\n</content>"_s;
    // OpenCode shows such a file with silent replacement characters; qcode
    // says so, so the model does not quote them back as the file's text.
    if (window.invalidUtf8)
        output += u"\n\n(This file is not valid UTF-8: bytes that are not UTF-8 are shown as \uFFFD.)"_s;

    FileReadResult result;
    result.title = title(path);
    result.output = output;
    result.metadata = QJsonObject{{"preview"_L1, window.lines.mid(0, PreviewLines).join(u'\n')},
                                  {"truncated"_L1, window.more || window.capped},
                                  {"loaded"_L1, QJsonArray{}}};
    if (window.invalidUtf8)
        result.metadata.insert("encoding"_L1, "invalid-utf8"_L1);
    return result;
}

} // namespace qcode
