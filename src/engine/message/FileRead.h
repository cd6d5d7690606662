#pragma once

#include <QJsonObject>
#include <QList>
#include <QString>

#include <optional>

#include "model/Part.h"

namespace qcode {

// The read tool's parameters (reference 8.1): an absolute path (a relative
// one is taken from the project directory), a 1-based first line and a
// line count.
struct FileReadRequest {
    QString filePath;
    std::optional<qint64> offset;
    std::optional<qint64> limit;
};

// What one read produced: the text the model sees, the tool part's title
// (the path relative to the worktree) and metadata {preview, truncated,
// loaded, external}, and for images and PDFs the file as a data URL.
struct FileReadResult {
    QString title;
    QString output;
    QJsonObject metadata;
    QList<FilePart> attachments;
};

} // namespace qcode
