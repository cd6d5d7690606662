#pragma once

#include <QCoreApplication>
#include <QImage>
#include <QList>
#include <QString>
#include <QStringList>
#include <QUrl>

#include "PromptAttachment.h"

class QMimeData;

namespace qcode {

// Turns what was dropped or pasted into attachments, and says in a
// sentence why anything was refused. Duplicates of what is already
// attached (or of each other) are skipped without a word: the chip is
// there already.
class AttachmentIntake
{
    Q_DECLARE_TR_FUNCTIONS(AttachmentIntake)

public:
    // Providers refuse larger images; the person hears the limit.
    static constexpr qint64 MaxImageBytes = 10 * 1024 * 1024;

    struct Outcome {
        QList<PromptAttachment> added;
        QStringList problems; // one sentence each
        bool offered = false; // the data held files or an image at all
    };

    enum class Source {
        Drop,
        // A paste of links that are all remote, with text beside them, is
        // text (a copied web address), not a failed attachment; so is a
        // paste of an image with text beside it (copied from a document).
        Paste,
    };

    static Outcome fromMimeData(const QMimeData *mime, const QList<PromptAttachment> &existing, Source source);
    static Outcome fromUrls(const QList<QUrl> &urls, const QList<PromptAttachment> &existing);
    static Outcome fromImage(const QImage &image, const QList<PromptAttachment> &existing);

    // One local path: a Folder, an Image (by its type) or a File; or the
    // sentence saying why it cannot be attached.
    static Outcome fromPath(const QString &path, const QList<PromptAttachment> &existing);

private:
    static void add(Outcome &outcome, const PromptAttachment &attachment, const QList<PromptAttachment> &existing);
};

} // namespace qcode
