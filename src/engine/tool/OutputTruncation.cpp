#include "OutputTruncation.h"

#include <QDir>
#include <QFileInfo>
#include <QSaveFile>
#include <QStringList>

#include "ToolLogging.h"
#include "model/Identifier.h"

using namespace Qt::StringLiterals;

namespace qcode {
namespace {

qsizetype utf8Size(const QString &text)
{
    return text.toUtf8().size();
}

// The hint is for the model, in OpenCode's words (not translated).
QString hint(const QString &path, const QString &saveError, bool agentCanUseTask)
{
    if (path.isEmpty())
        return u"The tool call succeeded but the output was truncated, and the full output could not be saved (%1)."_s
            .arg(saveError);
    if (agentCanUseTask)
        return u"The tool call succeeded but the output was truncated. Full output saved to: %1\n"
               "Use the Task tool to have explore agent process this file with Grep and Read (with offset/limit). "
               "Do NOT read the full file yourself - delegate to save context."_s.arg(path);
    return u"The tool call succeeded but the output was truncated. Full output saved to: %1\n"
           "Use Grep to search the full content or Read with offset/limit to view specific sections."_s.arg(path);
}

} // namespace

OutputTruncation::OutputTruncation(QString dataDirectory)
    : m_dataDirectory(std::move(dataDirectory))
{
}

QString OutputTruncation::directory() const
{
    return QDir(m_dataDirectory).filePath(u"tool-output"_s);
}

OutputTruncation::Output OutputTruncation::truncate(const QString &text, bool agentCanUseTask,
                                                    const Limits &limits) const
{
    const QStringList lines = text.split(u'\n');
    const qsizetype totalBytes = utf8Size(text);
    if (lines.size() <= limits.maxLines && totalBytes <= limits.maxBytes)
        return Output{text, false, {}};

    QStringList kept;
    qsizetype bytes = 0;
    bool hitBytes = false;
    const bool head = limits.direction == Direction::Head;
    for (qsizetype n = 0; n < lines.size() && kept.size() < limits.maxLines; ++n) {
        const QString &line = lines.at(head ? n : lines.size() - 1 - n);
        const qsizetype size = utf8Size(line) + (kept.isEmpty() ? 0 : 1);
        if (bytes + size > limits.maxBytes) {
            hitBytes = true;
            break;
        }
        if (head)
            kept.append(line);
        else
            kept.prepend(line);
        bytes += size;
    }
    const qsizetype removed = hitBytes ? totalBytes - bytes : lines.size() - kept.size();
    const QString notice = u"...%1 %2 truncated..."_s.arg(QString::number(removed), hitBytes ? "bytes"_L1 : "lines"_L1);

    QString saveError;
    const QString path = save(text, &saveError);
    const QString advice = hint(path, saveError, agentCanUseTask);
    const QString preview = kept.join(u'\n');
    const QString content = head ? preview + "\n\n"_L1 + notice + "\n\n"_L1 + advice
                                 : notice + "\n\n"_L1 + advice + "\n\n"_L1 + preview;
    qCDebug(lcTool) << "truncated output of" << lines.size() << "lines," << totalBytes << "bytes; saved to" << path;
    return Output{content, true, path};
}

QString OutputTruncation::save(const QString &text, QString *error) const
{
    if (m_dataDirectory.isEmpty()) {
        *error = u"no data folder"_s;
        return {};
    }
    if (!QDir().mkpath(directory())) {
        *error = u"cannot create %1"_s.arg(directory());
        return {};
    }
    const QString path = QDir(directory()).filePath(Identifier::ascending(Identifier::Prefix::Tool));
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly)) {
        *error = file.errorString();
        return {};
    }
    file.write(text.toUtf8());
    if (!file.commit()) {
        *error = file.errorString();
        qCWarning(lcTool) << "cannot save truncated tool output to" << path << *error;
        return {};
    }
    return path;
}

int OutputTruncation::removeExpired(const QDateTime &now) const
{
    const QDateTime cutoff = now.addDays(-RetentionDays);
    const QFileInfoList files =
        QDir(directory()).entryInfoList({Identifier::prefixText(Identifier::Prefix::Tool) + u"_*"_s}, QDir::Files);
    int removed = 0;
    for (const QFileInfo &file : files) {
        if (file.lastModified() >= cutoff)
            continue;
        if (QFile::remove(file.absoluteFilePath()))
            ++removed;
        else
            qCWarning(lcTool) << "cannot remove expired tool output" << file.absoluteFilePath();
    }
    if (removed > 0)
        qCInfo(lcTool) << "removed" << removed << "expired tool outputs";
    return removed;
}

} // namespace qcode
