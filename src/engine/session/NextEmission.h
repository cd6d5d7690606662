#pragma once

#include <QMetaObject>
#include <QObject>
#include <QPointer>

#include <coroutine>

namespace qcode {

// Resumes once, after the signal's next emission:
//
//     NextEmission ended(sender, &Sender::signal);
//     co_await ended; // a named awaiter: GCC 12 copies temporaries

//
// qCoro(sender, &signal) is not safe for a signal that may be emitted
// again before the waiter runs: it resumes through a queued connection and
// only disconnects when that runs, so two emissions in a row resume the
// waiter twice — the second time a coroutine that has moved on or ended.
// Here the first emission disconnects at once and posts one resume.
template <typename Sender, typename Signal>
class NextEmission
{
public:
    NextEmission(Sender *sender, Signal signal)
        : m_sender(sender)
        , m_signal(signal)
    {
    }
    // QCoro's tasks copy what they await; only the copy that suspends
    // connects, and each copy lets go of its own connection.
    NextEmission(const NextEmission &other)
        : m_sender(other.m_sender)
        , m_signal(other.m_signal)
    {
    }
    NextEmission &operator=(const NextEmission &) = delete;
    ~NextEmission() { QObject::disconnect(m_connection); }

    bool await_ready() const noexcept { return m_sender.isNull(); }

    void await_suspend(std::coroutine_handle<> waiter)
    {
        Sender *sender = m_sender.data();
        m_connection = QObject::connect(sender, m_signal, sender, [this, sender, waiter](const auto &...) {
            QObject::disconnect(m_connection);
            QMetaObject::invokeMethod(sender, [waiter] { waiter.resume(); }, Qt::QueuedConnection);
        });
    }

    void await_resume() const noexcept {}

private:
    QPointer<Sender> m_sender;
    Signal m_signal;
    QMetaObject::Connection m_connection;
};

} // namespace qcode
