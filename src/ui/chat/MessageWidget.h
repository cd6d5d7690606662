#pragma once

#include <QFrame>
#include <QList>

#include <optional>

#include "ChatContext.h"
#include "model/ChatModel.h"
#include "model/Part.h"

class QLabel;
class QPushButton;
class QToolButton;
class QVBoxLayout;

namespace qcode {

class PartWidget;

// One message of the conversation: the person's words in a bubble, or one
// step of the agent's answer — its parts in order, and its error, if it
// failed, with a Retry. The step's model, tokens and cost show on hover.
class MessageWidget : public QFrame
{
    Q_OBJECT

public:
    MessageWidget(const ChatContext &context, QWidget *parent = nullptr);
    ~MessageWidget() override;

    // `cut`: parts of the revert message from the cut on are not shown.
    void setMessage(const MessageWithParts &message, const std::optional<RevertCut> &cut = {});
    void setInfo(const Message &info);
    void insertPart(int index, const Part &part);
    void updatePart(int index, const Part &part);
    void removePart(int index);
    void appendDelta(int index, const Part &part, const QString &field, const QString &delta);

    const QString &messageID() const { return m_messageID; }
    bool isUser() const { return m_info.isUser(); }
    // The message as Markdown, for "copy message".
    QString markdown() const;
    // Part widgets on screen (invisible parts, such as step markers, have none).
    int partWidgetCount() const;
    PartWidget *partWidget(int index) const;

Q_SIGNALS:
    void openSessionRequested(const QString &sessionID);
    void retryRequested(const QString &messageID);
    void revertRequested(const QString &messageID);
    void forkRequested(const QString &messageID);
    // A provider refused the key (401/403): Settings has the fix.
    void settingsRequested();

protected:
    void contextMenuEvent(QContextMenuEvent *event) override;
    void changeEvent(QEvent *event) override;

private:
    void retranslateUi();
    bool hiddenByCut(const Part &part) const;
    PartWidget *makePartWidget(const Part &part);
    int layoutPosition(int index) const;
    void showError();
    void updateToolTip();
    void updateSummaryFold();

    ChatContext m_context;
    QString m_messageID;
    Message m_info;
    std::optional<RevertCut> m_cut;
    QList<PartWidget *> m_parts; // one per part of the message, null for invisible ones
    bool m_isSummary = false;
    QToolButton *m_summaryToggle = nullptr;
    QFrame *m_body = nullptr;
    QVBoxLayout *m_partsLayout = nullptr;
    QFrame *m_error = nullptr;
    QLabel *m_errorIcon = nullptr;
    QLabel *m_errorText = nullptr;
    QPushButton *m_openSettings = nullptr;
    QPushButton *m_retry = nullptr;
};

} // namespace qcode
