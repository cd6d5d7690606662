#pragma once

#include <QByteArray>
#include <QList>
#include <QMetaType>
#include <QString>

namespace qcode {

// One chip above the prompt: a file, a folder or an image the person
// dropped or pasted.
struct PromptAttachment {
    enum class Kind { File, Folder, Image };

    Kind kind = Kind::File;
    QString path;    // absolute local path (File, Folder, and an Image from a file)
    QString mime;
    QString name;    // display name
    QByteArray data; // a pasted or dropped image's bytes (when not from a file), encoded PNG

    bool isSameAs(const PromptAttachment &other) const
    {
        return path.isEmpty() ? other.path.isEmpty() && data == other.data : path == other.path;
    }
};

} // namespace qcode

Q_DECLARE_METATYPE(qcode::PromptAttachment)
