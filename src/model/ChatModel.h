#pragma once

#include <QAbstractListModel>
#include <QJsonObject>
#include <QString>

#include <memory>
#include <optional>
#include <vector>

#include "Part.h"
#include "Result.h"
#include "Store.h"

namespace qcode {

class StreamingText;

// Where a session's revert point cuts it (Session::revert): the message it
// goes back to and, optionally, the first part of it that is undone.
struct RevertCut {
    QString messageID;
    std::optional<QString> partID;
};

// One session's messages for the chat view (DESIGN.md §6), a row per
// message, oldest first. Every row is known from the start (the store's
// message index: ids and times only), but a row's content — the message and
// its parts — is read only when the view asks for it, and can be released
// again when it scrolls far away, so memory stays flat however long the
// session is.
//
// The engine's events are applied as they come, row by row and part by
// part: a streamed delta appends to one part's text and says so
// (partTextAppended), nothing is re-read. Events of other sessions, and
// of rows whose content is not loaded, change nothing but the row list.
class ChatModel : public QAbstractListModel
{
    Q_OBJECT

public:
    enum Roles {
        MessageIdRole = Qt::UserRole + 1,
        IsUserRole,
        LoadedRole,
        HiddenRole, // after the revert point
    };

    // `store` is the GUI thread's read connection; `streaming` (optional)
    // completes the text of parts that stream while they are read.
    explicit ChatModel(Store *store, const StreamingText *streaming = nullptr, QObject *parent = nullptr);
    ~ChatModel() override;

    // Lists the session's messages (content is read later); empty clears.
    Result<void> setSession(const QString &sessionID);
    const QString &sessionID() const { return m_sessionID; }

    // The row's content, read from the store when it is not in memory;
    // null when it cannot be read (loadFailed says why).
    const MessageWithParts *message(int row);
    // The content only if it is in memory.
    const MessageWithParts *loadedMessage(int row) const;
    // Reads the content of the rows in [first, last] that are not loaded,
    // in one query.
    void load(int first, int last);
    // Forgets the content of the rows in [first, last], except rows still
    // being written (an assistant message that has not completed).
    void release(int first, int last);
    int loadedCount() const;
    int rowOf(const QString &messageID) const;
    QString messageIdAt(int row) const;

    std::optional<RevertCut> revertCut() const { return m_revert; }
    void setRevert(const std::optional<QJsonObject> &revert);
    bool isHidden(int row) const;

    // The engine's events (the caller filters nothing: other sessions'
    // events are ignored here).
    void applyMessage(const Message &message);
    void applyMessageRemoved(const QString &sessionID, const QString &messageID);
    void applyPart(const Part &part);
    void applyPartRemoved(const QString &sessionID, const QString &messageID, const QString &partID);
    void applyPartDelta(const QString &sessionID, const QString &messageID, const QString &partID,
                        const QString &field, const QString &delta);

    int rowCount(const QModelIndex &parent = QModelIndex()) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;

Q_SIGNALS:
    // The row's message info changed (also reported as dataChanged).
    void messageChanged(int row);
    void partInserted(int row, int partIndex);
    void partChanged(int row, int partIndex);
    void partRemoved(int row, int partIndex);
    // `delta` was appended to the part's `field` ("text").
    void partTextAppended(int row, int partIndex, const QString &field, const QString &delta);
    void revertChanged();
    void loadFailed(const QString &message);

private:
    struct Row {
        MessageCursor key;
        std::unique_ptr<MessageWithParts> content;
    };

    int findRow(const QString &messageID) const;
    int insertionRow(const MessageCursor &key) const;
    static int findPart(const MessageWithParts &message, const QString &partID);
    static int partInsertionRow(const MessageWithParts &message, const QString &partID);
    void adopt(Row &row, MessageWithParts content);

    Store *m_store;
    const StreamingText *m_streaming;
    QString m_sessionID;
    std::vector<Row> m_rows; // ordered by (time created, id)
    std::optional<RevertCut> m_revert;
};

} // namespace qcode
