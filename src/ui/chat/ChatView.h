#pragma once

#include <QAbstractScrollArea>
#include <QTimer>
#include <QPointer>

#include <vector>

#include "ChatContext.h"

class QToolButton;

namespace qcode {

class ChatModel;
class MessageWidget;

// The conversation, smooth at any length (DESIGN.md §6). Every message of
// the session is a row with a height — measured once it has been on screen,
// estimated before — but only the rows near the viewport have a widget
// (and their content in memory); rows that scroll far away give both back.
// So opening a session of 10,000 messages builds one screen of widgets, and
// memory stays flat however far the person scrolls.
//
// Changes arrive from the model row by row and part by part: a streamed
// delta goes to the one part widget it belongs to. The view sticks to the
// bottom while the person is at the bottom, keeps what they are reading
// still while rows above it change height, and offers "jump to latest"
// when they have scrolled up.
class ChatView : public QAbstractScrollArea
{
    Q_OBJECT

public:
    ChatView(ChatModel *model, ChatContext context, QWidget *parent = nullptr);
    ~ChatView() override;

    ChatModel *model() const { return m_model; }
    const ChatContext &context() const { return m_context; }

    bool isAtBottom() const;
    void scrollToBottom();
    // Brings the row's top into view.
    void scrollToRow(int row);

    // The widget of a row on screen (or near it), else null.
    MessageWidget *widgetAt(int row) const;
    int materializedCount() const;
    // The rows with a widget, first and last (-1 when none).
    std::pair<int, int> materializedRange() const;
    // The row at the top of the viewport, or -1.
    int firstVisibleRow() const;
    // Lays out now instead of at the next turn of the event loop (tests,
    // and the benchmark's "first full screen").
    void layoutNow();

Q_SIGNALS:
    void openSessionRequested(const QString &sessionID);
    void retryRequested(const QString &messageID);
    void revertRequested(const QString &messageID);
    void forkRequested(const QString &messageID);
    void settingsRequested();
    void atBottomChanged(bool atBottom);

protected:
    void resizeEvent(QResizeEvent *event) override;
    void scrollContentsBy(int dx, int dy) override;
    bool viewportEvent(QEvent *event) override;
    bool eventFilter(QObject *watched, QEvent *event) override;
    void keyPressEvent(QKeyEvent *event) override;
    void changeEvent(QEvent *event) override;

private:
    struct Slot {
        int height = 0;
        bool measured = false;
        MessageWidget *widget = nullptr;
    };

    void retranslateUi();
    void connectModel();
    void queueDelta(int row, int index, const QString &field, const QString &delta);
    void flushDeltas();
    void reset();
    void rowsInserted(int first, int last);
    void rowsRemoved(int first, int last);
    void rowsChanged(int first, int last);
    void scheduleLayout();
    void layout();
    bool layoutPass();
    void placeWidgets();
    void releaseFarRows(int first, int last);
    MessageWidget *materialize(int row);
    void dematerialize(int row);
    int measure(int row);
    int estimatedHeight() const;
    int offsetOf(int row);
    int rowAt(int y);
    int totalHeight();
    void updatePrefix();
    void updateScrollRange();
    void placeJumpButton();
    void setStick(bool stick);
    // A click or key in the conversation (expanding a card, selecting text) holds
    // what is under the mouse still: following the bottom pauses until the
    // mouse leaves the view, or the person scrolls down or sends.
    void pauseForInteraction();
    template <typename F>
    void withWidget(int row, F &&apply);

    ChatModel *m_model;
    ChatContext m_context;
    std::vector<Slot> m_slots;
    std::vector<int> m_prefix; // m_prefix[i]: the offset of row i; one more entry for the end
    bool m_prefixDirty = true;
    int m_width = -1;
    bool m_stick = true;
    bool m_interacting = false;
    bool m_stickBeforeInteraction = false;
    bool m_layoutPending = false;
    bool m_inLayout = false;
    int m_windowFirst = -1;
    int m_windowLast = -1;
    // What the person is reading: this row, this far into it; kept still
    // while rows above it change height.
    int m_anchorRow = -1;
    int m_anchorDelta = 0;
    qint64 m_measuredTotal = 0;
    qint64 m_measuredCount = 0;
    QToolButton *m_jump = nullptr;
    struct PendingDelta {
        QString messageID;
        QString partID;
        QString field;
        QString text;
    };
    QList<PendingDelta> m_pendingDeltas;
    QTimer m_deltaTimer;
};

} // namespace qcode
