#include "ChatView.h"

#include <QEvent>
#include <QKeyEvent>
#include <QLoggingCategory>
#include <QApplication>
#include <QScrollBar>
#include <QStyle>
#include <QToolButton>

#include <algorithm>

#include "MessageWidget.h"
#include "model/ChatModel.h"
#include "ui/support/FocusRing.h"

using namespace Qt::StringLiterals;

Q_LOGGING_CATEGORY(lcChatView, "qcode.ui.chat")

namespace qcode {
namespace {

// Rows this many viewport heights beyond the screen keep their widget, so
// a small scroll shows ready rows; rows farther than the second margin
// give their content back to the store.
constexpr int WidgetMargin = 1;
constexpr int ContentMarginRows = 60;
constexpr int DefaultEstimate = 120;
// Measuring can move rows into and out of the window; a few passes settle
// it (each pass measures only rows that are new on screen).
constexpr int MaxLayoutPasses = 4;
// Streamed text is shown at most this often (a 60 Hz frame).
constexpr int DeltaFrameMs = 16;

} // namespace

ChatView::ChatView(ChatModel *model, ChatContext context, QWidget *parent)
    : QAbstractScrollArea(parent)
    , m_model(model)
    , m_context(std::move(context))
{
    setObjectName(u"chatView"_s);
    setFrameShape(QFrame::NoFrame);
    setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    setVerticalScrollBarPolicy(Qt::ScrollBarAsNeeded);
    setFocusPolicy(Qt::StrongFocus);
    verticalScrollBar()->setSingleStep(24);
    viewport()->setAutoFillBackground(true);
    viewport()->setBackgroundRole(QPalette::Base);

    m_jump = new QToolButton(this);
    m_jump->setObjectName(u"jumpToLatest"_s);
    m_jump->setIcon(style()->standardIcon(QStyle::SP_ArrowDown));
    m_jump->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    m_jump->setAutoRaise(false);
    m_jump->hide();
    connect(m_jump, &QToolButton::clicked, this, &ChatView::scrollToBottom);
    // Reached by Tab (its keys scroll), and frameless: the ring shows it has the focus.
    new FocusRing(this);
    retranslateUi();

    connectModel();
    reset();
    // Presses go to the widgets inside the messages, not to the view.
    qApp->installEventFilter(this);
}

void ChatView::retranslateUi()
{
    m_jump->setText(tr("Jump to latest"));
    m_jump->setToolTip(tr("Scroll to the newest message (%1)")
                           .arg(QKeySequence(Qt::CTRL | Qt::Key_End).toString(QKeySequence::NativeText)));
}

void ChatView::changeEvent(QEvent *event)
{
    QAbstractScrollArea::changeEvent(event);
    if (event->type() != QEvent::LanguageChange)
        return;
    retranslateUi();
    // The messages on screen retranslate themselves (they get the event
    // next) and may change height; what the person reads stays anchored.
    for (Slot &slot : m_slots) {
        if (slot.widget)
            slot.measured = false;
    }
    m_prefixDirty = true;
    scheduleLayout();
}

ChatView::~ChatView() = default;

void ChatView::connectModel()
{
    // Every other change comes after the deltas before it: they are shown
    // first (connected before the handlers below, so called before them).
    const auto flushFirst = [this] { flushDeltas(); };
    connect(m_model, &QAbstractItemModel::modelReset, this, flushFirst);
    connect(m_model, &QAbstractItemModel::rowsInserted, this, flushFirst);
    connect(m_model, &QAbstractItemModel::rowsRemoved, this, flushFirst);
    connect(m_model, &QAbstractItemModel::dataChanged, this, flushFirst);
    connect(m_model, &ChatModel::revertChanged, this, flushFirst);
    connect(m_model, &ChatModel::messageChanged, this, flushFirst);
    connect(m_model, &ChatModel::partInserted, this, flushFirst);
    connect(m_model, &ChatModel::partChanged, this, flushFirst);
    connect(m_model, &ChatModel::partRemoved, this, flushFirst);
    connect(m_model, &QAbstractItemModel::modelReset, this, &ChatView::reset);
    connect(m_model, &QAbstractItemModel::rowsInserted, this,
            [this](const QModelIndex &, int first, int last) { rowsInserted(first, last); });
    connect(m_model, &QAbstractItemModel::rowsRemoved, this,
            [this](const QModelIndex &, int first, int last) { rowsRemoved(first, last); });
    connect(m_model, &QAbstractItemModel::dataChanged, this,
            [this](const QModelIndex &from, const QModelIndex &to) { rowsChanged(from.row(), to.row()); });
    connect(m_model, &ChatModel::revertChanged, this, [this] { rowsChanged(0, int(m_slots.size()) - 1); });
    connect(m_model, &ChatModel::messageChanged, this, [this](int row) {
        withWidget(row, [this, row](MessageWidget *widget) {
            if (const MessageWithParts *message = m_model->loadedMessage(row))
                widget->setInfo(message->info);
        });
    });
    connect(m_model, &ChatModel::partInserted, this, [this](int row, int index) {
        withWidget(row, [this, row, index](MessageWidget *widget) {
            widget->insertPart(index, m_model->loadedMessage(row)->parts.at(index));
        });
    });
    connect(m_model, &ChatModel::partChanged, this, [this](int row, int index) {
        withWidget(row, [this, row, index](MessageWidget *widget) {
            widget->updatePart(index, m_model->loadedMessage(row)->parts.at(index));
        });
    });
    connect(m_model, &ChatModel::partRemoved, this,
            [this](int row, int index) { withWidget(row, [index](MessageWidget *widget) { widget->removePart(index); }); });
    connect(m_model, &ChatModel::partTextAppended, this, &ChatView::queueDelta);
    m_deltaTimer.setSingleShot(true);
    m_deltaTimer.setInterval(DeltaFrameMs);
    connect(&m_deltaTimer, &QTimer::timeout, this, &ChatView::flushDeltas);
}

// A model streams faster than a screen refreshes: deltas are gathered and
// shown once a frame, each open part re-rendered once for all its deltas.
void ChatView::queueDelta(int row, int index, const QString &field, const QString &delta)
{
    const MessageWithParts *message = m_model->loadedMessage(row);
    if (!message || index < 0 || index >= message->parts.size())
        return;
    const QString &partID = message->parts.at(index).id;
    if (!m_pendingDeltas.isEmpty()) {
        PendingDelta &last = m_pendingDeltas.last();
        if (last.partID == partID && last.field == field) {
            last.text += delta;
            return;
        }
    }
    m_pendingDeltas.append(PendingDelta{message->info.id(), partID, field, delta});
    if (!m_deltaTimer.isActive())
        m_deltaTimer.start();
}

void ChatView::flushDeltas()
{
    if (m_pendingDeltas.isEmpty())
        return;
    m_deltaTimer.stop();
    const QList<PendingDelta> pending = std::exchange(m_pendingDeltas, {});
    for (const PendingDelta &delta : pending) {
        // Found again by id: rows and parts may have moved since it came.
        const int row = m_model->rowOf(delta.messageID);
        const MessageWithParts *message = m_model->loadedMessage(row);
        if (!message)
            continue;
        const auto part = std::find_if(message->parts.begin(), message->parts.end(),
                                       [&](const Part &p) { return p.id == delta.partID; });
        if (part == message->parts.end())
            continue;
        const int index = int(part - message->parts.begin());
        withWidget(row, [&](MessageWidget *widget) { widget->appendDelta(index, *part, delta.field, delta.text); });
    }
}

template <typename F>
void ChatView::withWidget(int row, F &&apply)
{
    if (row < 0 || row >= int(m_slots.size()))
        return;
    if (MessageWidget *widget = m_slots[size_t(row)].widget) {
        apply(widget);
        scheduleLayout();
    } else {
        // Off screen: its height is measured again when it comes back.
        m_slots[size_t(row)].measured = false;
    }
}

void ChatView::reset()
{
    for (Slot &slot : m_slots)
        delete slot.widget;
    m_slots.assign(size_t(m_model->rowCount()), Slot{estimatedHeight(), false, nullptr});
    m_prefixDirty = true;
    m_windowFirst = m_windowLast = -1;
    setStick(true);
    scheduleLayout();
}

void ChatView::rowsInserted(int first, int last)
{
    const int count = last - first + 1;
    m_slots.insert(m_slots.begin() + first, size_t(count), Slot{estimatedHeight(), false, nullptr});
    if (m_windowFirst >= first)
        m_windowFirst += count;
    if (m_windowLast >= first)
        m_windowLast += count;
    if (!m_stick && m_anchorRow >= first)
        m_anchorRow += count;
    m_prefixDirty = true;
    scheduleLayout();
}

void ChatView::rowsRemoved(int first, int last)
{
    const int count = last - first + 1;
    for (int row = first; row <= last; ++row)
        delete m_slots[size_t(row)].widget;
    m_slots.erase(m_slots.begin() + first, m_slots.begin() + last + 1);
    const auto shift = [first, last, count](int &row) {
        if (row > last)
            row -= count;
        else if (row >= first)
            row = first;
    };
    shift(m_windowFirst);
    shift(m_windowLast);
    if (m_anchorRow >= first && m_anchorRow <= last)
        m_anchorDelta = 0;
    shift(m_anchorRow);
    m_anchorRow = std::min(m_anchorRow, int(m_slots.size()) - 1);
    m_prefixDirty = true;
    scheduleLayout();
}

void ChatView::rowsChanged(int first, int last)
{
    for (int row = std::max(first, 0); row <= last && row < int(m_slots.size()); ++row) {
        Slot &slot = m_slots[size_t(row)];
        const bool hidden = m_model->isHidden(row);
        if (hidden) {
            dematerialize(row);
            slot.height = 0;
            slot.measured = true;
        } else if (slot.measured && slot.height == 0) {
            slot.measured = false;
            slot.height = estimatedHeight();
        } else if (slot.widget) {
            slot.measured = false;
        }
    }
    m_prefixDirty = true;
    scheduleLayout();
}

bool ChatView::isAtBottom() const
{
    const QScrollBar *bar = verticalScrollBar();
    return bar->value() >= bar->maximum() - 2;
}

void ChatView::scrollToBottom()
{
    m_interacting = false;
    setStick(true);
    layoutNow();
}

void ChatView::scrollToRow(int row)
{
    if (row < 0 || row >= int(m_slots.size()))
        return;
    setStick(false);
    m_anchorRow = row;
    m_anchorDelta = 0;
    layoutNow();
}

MessageWidget *ChatView::widgetAt(int row) const
{
    return row >= 0 && row < int(m_slots.size()) ? m_slots[size_t(row)].widget : nullptr;
}

int ChatView::materializedCount() const
{
    return int(std::count_if(m_slots.begin(), m_slots.end(), [](const Slot &slot) { return slot.widget != nullptr; }));
}

std::pair<int, int> ChatView::materializedRange() const
{
    int first = -1, last = -1;
    for (int row = 0; row < int(m_slots.size()); ++row) {
        if (m_slots[size_t(row)].widget) {
            if (first < 0)
                first = row;
            last = row;
        }
    }
    return {first, last};
}

int ChatView::firstVisibleRow() const
{
    return const_cast<ChatView *>(this)->rowAt(verticalScrollBar()->value());
}

void ChatView::layoutNow()
{
    flushDeltas(); // "now" includes the text still waiting for its frame
    layout();
}

void ChatView::scheduleLayout()
{
    if (m_layoutPending)
        return;
    m_layoutPending = true;
    QMetaObject::invokeMethod(this, &ChatView::layout, Qt::QueuedConnection);
}

void ChatView::layout()
{
    m_layoutPending = false;
    if (m_inLayout)
        return;
    m_inLayout = true;
    const int width = viewport()->width();
    if (width != m_width) {
        m_width = width;
        for (Slot &slot : m_slots)
            slot.measured = slot.measured && slot.height == 0; // hidden rows stay at 0
    }
    for (int pass = 0; pass < MaxLayoutPasses; ++pass) {
        if (!layoutPass())
            break;
    }
    placeWidgets();
    m_inLayout = false;
    placeJumpButton();
}

// One pass: decide where the viewport is, make widgets for the rows near
// it and measure them. True when a height changed, so that the window may
// have moved and another pass is due.
bool ChatView::layoutPass()
{
    updatePrefix();
    updateScrollRange();
    QScrollBar *bar = verticalScrollBar();
    const int viewportHeight = viewport()->height();
    if (m_stick)
        bar->setValue(bar->maximum());
    else if (m_anchorRow >= 0 && m_anchorRow < int(m_slots.size()))
        bar->setValue(offsetOf(m_anchorRow) + m_anchorDelta);
    const int top = bar->value();
    if (m_slots.empty()) {
        m_windowFirst = m_windowLast = -1;
        return false;
    }

    const int first = rowAt(top - WidgetMargin * viewportHeight);
    const int last = rowAt(top + viewportHeight + WidgetMargin * viewportHeight);
    m_model->load(first, last);
    bool changed = false;
    for (int row = first; row <= last; ++row) {
        Slot &slot = m_slots[size_t(row)];
        if (m_model->isHidden(row)) {
            dematerialize(row);
            changed = changed || slot.height != 0;
            slot.height = 0;
            slot.measured = true;
            continue;
        }
        if (!slot.widget && !materialize(row))
            continue;
        if (slot.measured)
            continue;
        const int height = measure(row);
        slot.measured = true;
        if (height != slot.height) {
            slot.height = height;
            m_prefixDirty = true;
            changed = true;
        }
    }
    if (m_windowFirst >= 0) {
        for (int row = m_windowFirst; row <= m_windowLast && row < int(m_slots.size()); ++row) {
            if (row < first || row > last)
                dematerialize(row);
        }
    }
    const bool moved = first != m_windowFirst || last != m_windowLast;
    m_windowFirst = first;
    m_windowLast = last;
    if (moved)
        releaseFarRows(first, last);
    return changed;
}

void ChatView::placeWidgets()
{
    updatePrefix();
    updateScrollRange();
    QScrollBar *bar = verticalScrollBar();
    if (m_stick)
        bar->setValue(bar->maximum());
    const int top = bar->value();
    if (m_windowFirst >= 0) {
        for (int row = m_windowFirst; row <= m_windowLast; ++row) {
            const Slot &slot = m_slots[size_t(row)];
            if (slot.widget)
                slot.widget->setGeometry(0, offsetOf(row) - top, m_width, slot.height);
        }
    }
    if (!m_slots.empty()) {
        m_anchorRow = rowAt(top);
        m_anchorDelta = top - offsetOf(m_anchorRow);
    }
}

void ChatView::releaseFarRows(int first, int last)
{
    const int keepFirst = first - ContentMarginRows;
    const int keepLast = last + ContentMarginRows;
    if (keepFirst > 0)
        m_model->release(0, keepFirst - 1);
    if (keepLast < int(m_slots.size()) - 1)
        m_model->release(keepLast + 1, int(m_slots.size()) - 1);
}

MessageWidget *ChatView::materialize(int row)
{
    const MessageWithParts *message = m_model->message(row);
    if (!message)
        return nullptr;
    auto *widget = new MessageWidget(m_context, viewport());
    widget->setMessage(*message, m_model->revertCut());
    connect(widget, &MessageWidget::openSessionRequested, this, &ChatView::openSessionRequested);
    connect(widget, &MessageWidget::retryRequested, this, &ChatView::retryRequested);
    connect(widget, &MessageWidget::revertRequested, this, &ChatView::revertRequested);
    connect(widget, &MessageWidget::forkRequested, this, &ChatView::forkRequested);
    connect(widget, &MessageWidget::settingsRequested, this, &ChatView::settingsRequested);
    widget->installEventFilter(this);
    widget->setGeometry(0, -widget->height() - 1, m_width, widget->height());
    widget->show();
    m_slots[size_t(row)].widget = widget;
    return widget;
}

void ChatView::dematerialize(int row)
{
    Slot &slot = m_slots[size_t(row)];
    if (!slot.widget)
        return;
    // Deleted later: the widget may be the one whose signal brought us here.
    slot.widget->removeEventFilter(this);
    slot.widget->hide();
    slot.widget->deleteLater();
    slot.widget = nullptr;
}

int ChatView::measure(int row)
{
    MessageWidget *widget = m_slots[size_t(row)].widget;
    const int height = widget->hasHeightForWidth() ? widget->heightForWidth(m_width) : widget->sizeHint().height();
    m_measuredTotal += height;
    ++m_measuredCount;
    return std::max(height, 0);
}

int ChatView::estimatedHeight() const
{
    return m_measuredCount > 0 ? int(m_measuredTotal / m_measuredCount) : DefaultEstimate;
}

int ChatView::offsetOf(int row)
{
    updatePrefix();
    return m_prefix[size_t(std::clamp(row, 0, int(m_slots.size())))];
}

// The row that covers offset y (the first or last row beyond either end).
int ChatView::rowAt(int y)
{
    if (m_slots.empty())
        return -1;
    updatePrefix();
    const auto it = std::upper_bound(m_prefix.begin(), m_prefix.end() - 1, y);
    return std::clamp(int(it - m_prefix.begin()) - 1, 0, int(m_slots.size()) - 1);
}

int ChatView::totalHeight()
{
    updatePrefix();
    return m_prefix.back();
}

void ChatView::updatePrefix()
{
    if (!m_prefixDirty && m_prefix.size() == m_slots.size() + 1)
        return;
    m_prefix.resize(m_slots.size() + 1);
    int offset = 0;
    for (size_t row = 0; row < m_slots.size(); ++row) {
        m_prefix[row] = offset;
        offset += m_slots[row].height;
    }
    m_prefix.back() = offset;
    m_prefixDirty = false;
}

void ChatView::updateScrollRange()
{
    QScrollBar *bar = verticalScrollBar();
    const int viewportHeight = viewport()->height();
    bar->setPageStep(viewportHeight);
    bar->setRange(0, std::max(0, totalHeight() - viewportHeight));
}

void ChatView::placeJumpButton()
{
    const bool show = !m_stick && !isAtBottom();
    m_jump->setVisible(show);
    if (!show)
        return;
    m_jump->adjustSize();
    const QRect area = viewport()->geometry();
    const int margin = style()->pixelMetric(QStyle::PM_LayoutBottomMargin) + 4;
    m_jump->move(area.right() - m_jump->width() - margin, area.bottom() - m_jump->height() - margin);
    m_jump->raise();
}

void ChatView::setStick(bool stick)
{
    if (m_stick == stick)
        return;
    m_stick = stick;
    Q_EMIT atBottomChanged(stick);
}

void ChatView::resizeEvent(QResizeEvent *event)
{
    QAbstractScrollArea::resizeEvent(event);
    layout();
}

void ChatView::scrollContentsBy(int, int)
{
    if (m_inLayout)
        return;
    // The person scrolled: follow new messages only from the bottom.
    setStick(isAtBottom());
    const int top = verticalScrollBar()->value();
    m_anchorRow = rowAt(top);
    m_anchorDelta = m_anchorRow >= 0 ? top - offsetOf(m_anchorRow) : 0;
    layout();
}

bool ChatView::viewportEvent(QEvent *event)
{
    if (event->type() == QEvent::LayoutRequest) {
        scheduleLayout();
        return true;
    }
    if (event->type() == QEvent::Leave && m_interacting) {
        m_interacting = false;
        if (m_stickBeforeInteraction)
            scrollToBottom();
    }
    return QAbstractScrollArea::viewportEvent(event);
}

void ChatView::pauseForInteraction()
{
    if (!m_interacting) {
        m_interacting = true;
        m_stickBeforeInteraction = m_stick;
    }
    setStick(false);
}

bool ChatView::eventFilter(QObject *watched, QEvent *event)
{
    // A key pressed in a card (Space on its header) holds it still as a
    // click does; keys for the view itself (scrolling) reach it directly.
    if ((event->type() == QEvent::MouseButtonPress || event->type() == QEvent::KeyPress) && watched->isWidgetType()
        && (watched == viewport() || viewport()->isAncestorOf(static_cast<QWidget *>(watched)))) {
        pauseForInteraction();
        return false;
    }
    if (event->type() == QEvent::LayoutRequest) {
        for (int row = std::max(m_windowFirst, 0); row <= m_windowLast && row < int(m_slots.size()); ++row) {
            if (m_slots[size_t(row)].widget == watched) {
                m_slots[size_t(row)].measured = false;
                break;
            }
        }
        scheduleLayout();
    }
    return QAbstractScrollArea::eventFilter(watched, event);
}

void ChatView::keyPressEvent(QKeyEvent *event)
{
    if (event->key() == Qt::Key_End && (event->modifiers() & Qt::ControlModifier)) {
        scrollToBottom();
        return;
    }
    if (event->key() == Qt::Key_Home && (event->modifiers() & Qt::ControlModifier)) {
        scrollToRow(0);
        return;
    }
    QAbstractScrollArea::keyPressEvent(event);
}

} // namespace qcode
