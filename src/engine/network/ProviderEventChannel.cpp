#include "ProviderEventChannel.h"

#include "NetworkLogging.h"

#include <QMetaObject>

#include <utility>

namespace qcode {

ProviderEventChannel::Awaiter::Awaiter(std::shared_ptr<ProviderEventChannel> channel)
    : m_channel(std::move(channel))
{
}

ProviderEventChannel::Awaiter::Awaiter(Awaiter &&other) noexcept
    : m_channel(std::move(other.m_channel))
    , m_waiter(std::exchange(other.m_waiter, {}))
{
}

ProviderEventChannel::Awaiter::~Awaiter()
{
    if (m_channel && m_waiter && m_channel->m_waiter == m_waiter)
        m_channel->m_waiter = {};
}

bool ProviderEventChannel::Awaiter::await_ready() const noexcept
{
    return m_channel->hasPending() || m_channel->m_closed;
}

void ProviderEventChannel::Awaiter::await_suspend(std::coroutine_handle<> waiter) noexcept
{
    if (m_channel->m_waiter)
        qCWarning(lcHttp) << "a second coroutine is waiting on the same provider call; the first will not resume";
    m_waiter = waiter;
    m_channel->m_waiter = waiter;
}

std::optional<ProviderEvent> ProviderEventChannel::Awaiter::await_resume()
{
    m_waiter = {};
    if (!m_channel->hasPending())
        return std::nullopt;
    ProviderEvent event = std::move(m_channel->m_queue[m_channel->m_head++]);
    if (!m_channel->hasPending()) {
        m_channel->m_queue.clear();
        m_channel->m_head = 0;
    }
    return event;
}

void ProviderEventChannel::push(ProviderEvent event)
{
    if (m_closed)
        return;
    m_queue.append(std::move(event));
    scheduleResume();
}

void ProviderEventChannel::close()
{
    if (m_closed)
        return;
    m_closed = true;
    scheduleResume();
}

ProviderEventChannel::Awaiter ProviderEventChannel::next()
{
    return Awaiter(shared_from_this());
}

void ProviderEventChannel::scheduleResume()
{
    if (!m_waiter || m_resumeScheduled)
        return;
    m_resumeScheduled = true;
    QMetaObject::invokeMethod(
        &m_context,
        [weak = weak_from_this()] {
            // The lock keeps the channel alive while the coroutine runs,
            // even if that run drops the last other owner.
            const std::shared_ptr<ProviderEventChannel> self = weak.lock();
            if (!self)
                return;
            self->m_resumeScheduled = false;
            if (const std::coroutine_handle<> waiter = std::exchange(self->m_waiter, {}))
                waiter.resume();
        },
        Qt::QueuedConnection);
}

} // namespace qcode
