#include "AttachmentIntake.h"

#include <QBuffer>
#include <QDir>
#include <QFileInfo>
#include <QLocale>
#include <QMimeData>

#include "PromptLogging.h"
#include "engine/message/FileReader.h"

#include <algorithm>

using namespace Qt::StringLiterals;

namespace qcode {
namespace {

QString megabytes(qint64 bytes)
{
    return QLocale().toString(double(bytes) / (1024.0 * 1024.0), 'f', 1);
}

QString limitText()
{
    return QLocale().toString(AttachmentIntake::MaxImageBytes / (1024 * 1024));
}

void merge(AttachmentIntake::Outcome &into, const AttachmentIntake::Outcome &from)
{
    into.added += from.added;
    into.problems += from.problems;
    into.offered = into.offered || from.offered;
}

} // namespace

void AttachmentIntake::add(Outcome &outcome, const PromptAttachment &attachment,
                           const QList<PromptAttachment> &existing)
{
    const auto same = [&](const PromptAttachment &other) { return other.isSameAs(attachment); };
    if (std::any_of(existing.cbegin(), existing.cend(), same)
        || std::any_of(outcome.added.cbegin(), outcome.added.cend(), same)) {
        qCDebug(lcPrompt) << "already attached" << attachment.name;
        return;
    }
    outcome.added.append(attachment);
}

AttachmentIntake::Outcome AttachmentIntake::fromMimeData(const QMimeData *mime,
                                                         const QList<PromptAttachment> &existing, Source source)
{
    if (!mime)
        return {};
    if (mime->hasUrls()) {
        const QList<QUrl> urls = mime->urls();
        const bool anyLocal = std::any_of(urls.cbegin(), urls.cend(), [](const QUrl &url) { return url.isLocalFile(); });
        if (source == Source::Paste && !anyLocal && mime->hasText())
            return {};
        return fromUrls(urls, existing);
    }
    // Office programs and browsers put a picture of copied text beside the
    // text itself; the text is what was meant.
    if (source == Source::Paste && mime->hasText() && !mime->text().trimmed().isEmpty())
        return {};
    if (mime->hasImage())
        return fromImage(qvariant_cast<QImage>(mime->imageData()), existing);
    return {};
}

AttachmentIntake::Outcome AttachmentIntake::fromUrls(const QList<QUrl> &urls, const QList<PromptAttachment> &existing)
{
    Outcome outcome;
    outcome.offered = !urls.isEmpty();
    QList<PromptAttachment> seen = existing;
    for (const QUrl &url : urls) {
        if (!url.isLocalFile()) {
            outcome.problems.append(tr("%1 is not a file on this computer; only local files and folders can be "
                                       "attached.")
                                        .arg(url.toDisplayString()));
            continue;
        }
        const Outcome one = fromPath(url.toLocalFile(), seen);
        seen += one.added;
        merge(outcome, one);
    }
    return outcome;
}

AttachmentIntake::Outcome AttachmentIntake::fromPath(const QString &path, const QList<PromptAttachment> &existing)
{
    Outcome outcome;
    outcome.offered = true;
    const QFileInfo info(path);
    const QString absolute = QDir::cleanPath(info.absoluteFilePath());
    const QString shown = QDir::toNativeSeparators(absolute);
    if (!info.exists()) {
        outcome.problems.append(tr("%1 does not exist (it may have been moved or deleted).").arg(shown));
        return outcome;
    }
    if (!info.isReadable()) {
        outcome.problems.append(tr("%1 cannot be read: you do not have permission to open it.").arg(shown));
        return outcome;
    }
    PromptAttachment attachment;
    attachment.path = absolute;
    attachment.name = info.fileName().isEmpty() ? shown : info.fileName();
    if (info.isDir()) {
        attachment.kind = PromptAttachment::Kind::Folder;
        attachment.mime = u"application/x-directory"_s;
        add(outcome, attachment, existing);
        return outcome;
    }
    // Typed as the engine will read it: images and PDFs travel as
    // attachments, anything else (SVG too) as text.
    attachment.mime = FileReader::mimeType(absolute);
    const bool sentWhole = FileReader::isAttachmentMime(attachment.mime);
    const bool image = sentWhole && attachment.mime.startsWith("image/"_L1);
    if (image && info.size() > MaxImageBytes) {
        outcome.problems.append(tr("%1 is %2 MB; images can be at most %3 MB.")
                                    .arg(attachment.name, megabytes(info.size()), limitText()));
        return outcome;
    }
    if (sentWhole && info.size() > FileReader::MaxAttachmentBytes) {
        outcome.problems.append(tr("%1 is %2 MB; attached documents can be at most %3 MB.")
                                    .arg(attachment.name, megabytes(info.size()),
                                         QLocale().toString(FileReader::MaxAttachmentBytes / (1024 * 1024))));
        return outcome;
    }
    attachment.kind = image ? PromptAttachment::Kind::Image : PromptAttachment::Kind::File;
    add(outcome, attachment, existing);
    return outcome;
}

AttachmentIntake::Outcome AttachmentIntake::fromImage(const QImage &image, const QList<PromptAttachment> &existing)
{
    Outcome outcome;
    outcome.offered = true;
    if (image.isNull()) {
        outcome.problems.append(tr("The pasted image could not be read."));
        return outcome;
    }
    QByteArray png;
    QBuffer buffer(&png);
    buffer.open(QIODevice::WriteOnly);
    // A screenshot encodes in a fraction of the time at a light compression
    // level (Qt maps PNG "quality" inversely to zlib's level).
    if (!image.save(&buffer, "PNG", 80)) {
        outcome.problems.append(tr("The pasted image could not be converted to PNG."));
        return outcome;
    }
    if (png.size() > MaxImageBytes) {
        outcome.problems.append(tr("The pasted image is %1 MB as PNG; images can be at most %2 MB.")
                                    .arg(megabytes(png.size()), limitText()));
        return outcome;
    }
    PromptAttachment attachment;
    attachment.kind = PromptAttachment::Kind::Image;
    attachment.mime = u"image/png"_s;
    attachment.name = tr("Pasted image %1 × %2").arg(image.width()).arg(image.height());
    attachment.data = png;
    add(outcome, attachment, existing);
    return outcome;
}

} // namespace qcode
