#pragma once

#include <QObject>

#include <QList>

#include <coroutine>
#include <memory>
#include <optional>

#include "engine/provider/ProviderEvent.h"

namespace qcode {

// The events of one provider call, queued for a single coroutine that
// awaits them one at a time. It is shared (std::shared_ptr) between the call
// and the awaiting coroutine, so a coroutine never holds a pointer to a call
// that may be destroyed under it: when the call goes away it closes the
// channel, and the coroutine drains what is left and sees the end.
//
// A waiting coroutine is resumed from the event loop, never from inside
// push() or close(): the producer is usually in the middle of a network
// signal, and running the consumer there would let it destroy the producer
// under its own feet. Producer and consumer share one thread (the engine's);
// across threads, use ProviderCall's signals instead.
class ProviderEventChannel : public std::enable_shared_from_this<ProviderEventChannel>
{
public:
    class Awaiter
    {
    public:
        explicit Awaiter(std::shared_ptr<ProviderEventChannel> channel);
        Awaiter(Awaiter &&other) noexcept;
        Awaiter(const Awaiter &) = delete;
        Awaiter &operator=(const Awaiter &) = delete;
        Awaiter &operator=(Awaiter &&) = delete;
        // A coroutine destroyed while suspended here must not be resumed.
        ~Awaiter();

        bool await_ready() const noexcept;
        void await_suspend(std::coroutine_handle<> waiter) noexcept;
        // The next event, or nothing once the channel is closed and empty.
        std::optional<ProviderEvent> await_resume();

    private:
        std::shared_ptr<ProviderEventChannel> m_channel;
        std::coroutine_handle<> m_waiter;
    };

    ProviderEventChannel() = default;
    ProviderEventChannel(const ProviderEventChannel &) = delete;
    ProviderEventChannel &operator=(const ProviderEventChannel &) = delete;

    void push(ProviderEvent event);
    // No more events will come.
    void close();
    bool isClosed() const { return m_closed; }
    qsizetype pendingCount() const { return m_queue.size() - m_head; }

    // co_await it: the next event, or nothing at the end. One waiter at a
    // time.
    Awaiter next();

private:
    void scheduleResume();

    bool hasPending() const { return m_head < m_queue.size(); }

    // Events are taken from m_head on; once all are taken the list is
    // emptied, not freed, so a long answer allocates nothing per event.
    QList<ProviderEvent> m_queue;
    qsizetype m_head = 0;
    std::coroutine_handle<> m_waiter;
    bool m_closed = false;
    bool m_resumeScheduled = false;
    // Queued resumes are posted to it, so they die with the channel.
    QObject m_context;
};

} // namespace qcode
