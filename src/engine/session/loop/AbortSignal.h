#pragma once

#include <QObject>

namespace qcode {

// One prompt's "stop": the engine's abort() sets it, and everything working
// for that prompt — the processor, a provider call, a tool, a permission
// question, a retry wait — checks isAborted() or listens to aborted() and
// ends promptly. Like the web's AbortSignal it fires once and stays set.
// Holders that may outlive it keep a QPointer and treat a destroyed signal
// as aborted: its owner, the prompt, is gone.
class AbortSignal : public QObject
{
    Q_OBJECT

public:
    using QObject::QObject;

    bool isAborted() const { return m_aborted; }
    // Idempotent: aborted() is emitted the first time only.
    void abort();

Q_SIGNALS:
    void aborted();

private:
    bool m_aborted = false;
};

} // namespace qcode
