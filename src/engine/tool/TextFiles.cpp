#include "TextFiles.h"

#include "LinkSafeFiles.h"

#include <QDir>
#include <QFileInfo>
#include <QStringDecoder>

namespace qcode {

namespace {

const QByteArray Utf8Bom("\xEF\xBB\xBF");

} // namespace

QString TextFiles::absolutePath(const ToolContext &context, const QString &filePath)
{
    return QDir::cleanPath(QDir(context.directory).absoluteFilePath(filePath));
}

QString TextFiles::relativePath(const ToolContext &context, const QString &absolutePath)
{
    const QString worktree = QDir::cleanPath(context.worktree);
    const QString base = context.worktree.isEmpty() || worktree == QLatin1String("/") ? context.directory : worktree;
    return QDir::fromNativeSeparators(QDir(base).relativeFilePath(absolutePath));
}

Result<QString> TextFiles::realPath(const QString &absolutePath)
{
    return LinkSafeFiles::realPath(absolutePath);
}

Result<QString> TextFiles::realEntry(const QString &absolutePath)
{
    const QFileInfo info(absolutePath);
    const Result<QString> folder = LinkSafeFiles::realPath(info.absolutePath());
    if (!folder)
        return folder.error();
    return QDir(*folder).filePath(info.fileName());
}

Result<TextFiles::Text> TextFiles::readText(const QString &path)
{
    Result<QByteArray> read = LinkSafeFiles::read(path);
    if (!read)
        return read.error();
    QByteArray bytes = std::move(read).value();
    if (bytes.contains('\0'))
        return Error{QStringLiteral("Cannot edit binary file: %1").arg(path)};
    Text text;
    if (bytes.startsWith(Utf8Bom)) {
        text.byteOrderMark = true;
        bytes.remove(0, Utf8Bom.size());
    }
    QStringDecoder decoder(QStringDecoder::Utf8, QStringDecoder::Flag::Stateless);
    text.text = decoder.decode(bytes);
    if (decoder.hasError())
        return Error{QStringLiteral("Cannot edit %1: it is not valid UTF-8 text").arg(path)};
    return text;
}

Result<void> TextFiles::writeText(const QString &realPath, const Text &text)
{
    QByteArray bytes = text.byteOrderMark ? Utf8Bom : QByteArray();
    bytes += text.text.toUtf8();
    return LinkSafeFiles::write(realPath, bytes);
}

Result<void> TextFiles::remove(const QString &path)
{
    return LinkSafeFiles::remove(path);
}

bool TextFiles::usesCrlf(const QString &text)
{
    return text.contains(QLatin1String("\r\n"));
}

QString TextFiles::toLf(QString text)
{
    return text.replace(QLatin1String("\r\n"), QLatin1String("\n"));
}

QString TextFiles::toCrlf(const QString &lfText)
{
    QString text = lfText;
    return text.replace(u'\n', QLatin1String("\r\n"));
}

} // namespace qcode
