#include "ChatModel.h"

#include <QLoggingCategory>

#include <algorithm>

#include "StreamingText.h"

using namespace Qt::StringLiterals;

Q_LOGGING_CATEGORY(lcChatModel, "qcode.model.chat")

namespace qcode {
namespace {

bool keyLess(const MessageCursor &a, const MessageCursor &b)
{
    return a.timeCreated != b.timeCreated ? a.timeCreated < b.timeCreated : a.id < b.id;
}

} // namespace

ChatModel::ChatModel(Store *store, const StreamingText *streaming, QObject *parent)
    : QAbstractListModel(parent)
    , m_store(store)
    , m_streaming(streaming)
{
}

ChatModel::~ChatModel() = default;

Result<void> ChatModel::setSession(const QString &sessionID)
{
    Result<QList<MessageCursor>> index = sessionID.isEmpty() ? Result<QList<MessageCursor>>(QList<MessageCursor>())
                                                             : m_store->messageIndex(sessionID);
    beginResetModel();
    m_sessionID = index ? sessionID : QString();
    m_rows.clear();
    m_revert.reset();
    if (index) {
        m_rows.reserve(size_t(index->size()));
        for (const MessageCursor &key : std::as_const(*index))
            m_rows.push_back(Row{key, nullptr});
    }
    endResetModel();
    if (!index)
        return index.error();
    return {};
}

const MessageWithParts *ChatModel::message(int row)
{
    if (row < 0 || row >= rowCount())
        return nullptr;
    if (!m_rows[size_t(row)].content)
        load(row, row);
    return m_rows[size_t(row)].content.get();
}

const MessageWithParts *ChatModel::loadedMessage(int row) const
{
    return row >= 0 && row < rowCount() ? m_rows[size_t(row)].content.get() : nullptr;
}

void ChatModel::load(int first, int last)
{
    first = std::max(first, 0);
    last = std::min(last, rowCount() - 1);
    QStringList missing;
    for (int row = first; row <= last; ++row) {
        if (!m_rows[size_t(row)].content)
            missing.append(m_rows[size_t(row)].key.id);
    }
    if (missing.isEmpty())
        return;
    Result<QList<MessageWithParts>> read = m_store->messagesById(missing);
    if (!read) {
        qCWarning(lcChatModel) << "reading messages failed:" << read.errorMessage();
        Q_EMIT loadFailed(read.errorMessage());
        return;
    }
    for (MessageWithParts &content : *read) {
        const int row = findRow(content.info.id());
        if (row >= 0 && !m_rows[size_t(row)].content)
            adopt(m_rows[size_t(row)], std::move(content));
    }
}

void ChatModel::adopt(Row &row, MessageWithParts content)
{
    if (m_streaming) {
        for (Part &part : content.parts)
            m_streaming->overlay(part);
    }
    row.content = std::make_unique<MessageWithParts>(std::move(content));
}

void ChatModel::release(int first, int last)
{
    first = std::max(first, 0);
    last = std::min(last, rowCount() - 1);
    for (int row = first; row <= last; ++row) {
        std::unique_ptr<MessageWithParts> &content = m_rows[size_t(row)].content;
        if (!content)
            continue;
        const AssistantMessage *assistant = content->info.assistant();
        if (assistant && !assistant->completed)
            continue;
        content.reset();
    }
}

int ChatModel::loadedCount() const
{
    return int(std::count_if(m_rows.begin(), m_rows.end(), [](const Row &row) { return row.content != nullptr; }));
}

int ChatModel::rowOf(const QString &messageID) const
{
    return findRow(messageID);
}

QString ChatModel::messageIdAt(int row) const
{
    return row >= 0 && row < rowCount() ? m_rows[size_t(row)].key.id : QString();
}

void ChatModel::setRevert(const std::optional<QJsonObject> &revert)
{
    std::optional<RevertCut> cut;
    if (revert && !revert->value("messageID"_L1).toString().isEmpty()) {
        cut = RevertCut{revert->value("messageID"_L1).toString(), std::nullopt};
        if (const QString part = revert->value("partID"_L1).toString(); !part.isEmpty())
            cut->partID = part;
    }
    const bool same = cut.has_value() == m_revert.has_value()
                      && (!cut || (cut->messageID == m_revert->messageID && cut->partID == m_revert->partID));
    if (same)
        return;
    m_revert = cut;
    if (!m_rows.empty())
        Q_EMIT dataChanged(index(0), index(rowCount() - 1), {HiddenRole});
    Q_EMIT revertChanged();
}

bool ChatModel::isHidden(int row) const
{
    if (!m_revert || row < 0 || row >= rowCount())
        return false;
    const QString &id = m_rows[size_t(row)].key.id;
    // Message ids ascend in time, so "after the revert point" is a string
    // comparison; the revert message itself stays when only some of its
    // parts are undone.
    return id > m_revert->messageID || (id == m_revert->messageID && !m_revert->partID);
}

void ChatModel::applyMessage(const Message &message)
{
    if (message.sessionID() != m_sessionID || m_sessionID.isEmpty())
        return;
    const int existing = findRow(message.id());
    if (existing >= 0) {
        if (MessageWithParts *content = m_rows[size_t(existing)].content.get())
            content->info = message;
        Q_EMIT dataChanged(index(existing), index(existing));
        Q_EMIT messageChanged(existing);
        return;
    }
    const MessageCursor key{message.created(), message.id()};
    const int row = insertionRow(key);
    beginInsertRows(QModelIndex(), row, row);
    m_rows.insert(m_rows.begin() + row, Row{key, std::make_unique<MessageWithParts>(MessageWithParts{message, {}})});
    endInsertRows();
}

void ChatModel::applyMessageRemoved(const QString &sessionID, const QString &messageID)
{
    if (sessionID != m_sessionID)
        return;
    const int row = findRow(messageID);
    if (row < 0)
        return;
    beginRemoveRows(QModelIndex(), row, row);
    m_rows.erase(m_rows.begin() + row);
    endRemoveRows();
}

void ChatModel::applyPart(const Part &part)
{
    if (part.sessionID != m_sessionID)
        return;
    const int row = findRow(part.messageID);
    MessageWithParts *content = row >= 0 ? m_rows[size_t(row)].content.get() : nullptr;
    if (!content)
        return;
    const int existing = findPart(*content, part.id);
    if (existing >= 0) {
        content->parts[existing] = part;
        Q_EMIT partChanged(row, existing);
        return;
    }
    const int at = partInsertionRow(*content, part.id);
    content->parts.insert(at, part);
    Q_EMIT partInserted(row, at);
}

void ChatModel::applyPartRemoved(const QString &sessionID, const QString &messageID, const QString &partID)
{
    if (sessionID != m_sessionID)
        return;
    const int row = findRow(messageID);
    MessageWithParts *content = row >= 0 ? m_rows[size_t(row)].content.get() : nullptr;
    if (!content)
        return;
    const int at = findPart(*content, partID);
    if (at < 0)
        return;
    content->parts.removeAt(at);
    Q_EMIT partRemoved(row, at);
}

void ChatModel::applyPartDelta(const QString &sessionID, const QString &messageID, const QString &partID,
                               const QString &field, const QString &delta)
{
    if (sessionID != m_sessionID || field != "text"_L1)
        return;
    const int row = findRow(messageID);
    MessageWithParts *content = row >= 0 ? m_rows[size_t(row)].content.get() : nullptr;
    if (!content)
        return;
    const int at = findPart(*content, partID);
    if (at < 0)
        return;
    Part &part = content->parts[at];
    if (TextPart *text = part.as<TextPart>())
        text->text += delta;
    else if (ReasoningPart *reasoning = part.as<ReasoningPart>())
        reasoning->text += delta;
    else
        return;
    Q_EMIT partTextAppended(row, at, field, delta);
}

int ChatModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

QVariant ChatModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= rowCount())
        return {};
    const Row &row = m_rows[size_t(index.row())];
    switch (role) {
    case Qt::DisplayRole: {
        if (!row.content)
            return QString();
        QStringList texts;
        for (const Part &part : row.content->parts) {
            if (const TextPart *text = part.as<TextPart>(); text && !text->synthetic.value_or(false))
                texts.append(text->text);
        }
        return texts.join(u"\n\n"_s);
    }
    case MessageIdRole: return row.key.id;
    case IsUserRole: return row.content ? QVariant(row.content->info.isUser()) : QVariant();
    case LoadedRole: return row.content != nullptr;
    case HiddenRole: return isHidden(index.row());
    default: return {};
    }
}

// Events come mostly for the newest rows: the search starts at the end.
int ChatModel::findRow(const QString &messageID) const
{
    for (int row = rowCount() - 1; row >= 0; --row) {
        if (m_rows[size_t(row)].key.id == messageID)
            return row;
    }
    return -1;
}

int ChatModel::insertionRow(const MessageCursor &key) const
{
    const auto it = std::upper_bound(m_rows.begin(), m_rows.end(), key,
                                     [](const MessageCursor &k, const Row &row) { return keyLess(k, row.key); });
    return int(it - m_rows.begin());
}

int ChatModel::findPart(const MessageWithParts &message, const QString &partID)
{
    for (qsizetype i = message.parts.size() - 1; i >= 0; --i) {
        if (message.parts[i].id == partID)
            return int(i);
    }
    return -1;
}

// Part ids ascend in time, and a message's parts are kept in id order,
// as the store reads them.
int ChatModel::partInsertionRow(const MessageWithParts &message, const QString &partID)
{
    const auto it = std::upper_bound(message.parts.begin(), message.parts.end(), partID,
                                     [](const QString &id, const Part &part) { return id < part.id; });
    return int(it - message.parts.begin());
}

} // namespace qcode
