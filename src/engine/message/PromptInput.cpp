#include "PromptInput.h"

#include <QDir>
#include <QFileInfo>
#include <QUrl>

#include "FileReader.h"

using namespace Qt::StringLiterals;

namespace qcode {

PromptPart PromptPart::text(const QString &text)
{
    return PromptPart{std::nullopt, TextPart{text, std::nullopt, std::nullopt, std::nullopt, std::nullopt}};
}

PromptPart PromptPart::droppedFile(const QString &path)
{
    const QFileInfo info(path);
    const QString absolute = QDir::cleanPath(info.absoluteFilePath());
    QString mime = u"text/plain"_s;
    if (info.isDir())
        mime = u"application/x-directory"_s;
    else if (const QString named = FileReader::mimeType(absolute); FileReader::isAttachmentMime(named))
        mime = named;
    return PromptPart{std::nullopt, FilePart{mime, info.fileName(),
                                             QUrl::fromLocalFile(absolute).toString(QUrl::FullyEncoded),
                                             std::nullopt}};
}

} // namespace qcode
