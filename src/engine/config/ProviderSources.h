#pragma once

#include <QObject>

namespace qcode {

// The providers of a loaded project come from its config at once, and from
// slower sources later: the keys saved in the keychain, the local model
// servers that answer. What resolves a model waits until every source
// that was started has come in (settled), so a model whose key is in the
// keychain, or which a running Ollama serves, is never "not found".
class ProviderSources : public QObject
{
    Q_OBJECT

public:
    using QObject::QObject;

    void started() { ++m_pending; }
    void finished()
    {
        if (m_pending > 0 && --m_pending == 0)
            Q_EMIT settled();
    }
    bool isPending() const { return m_pending > 0; }

Q_SIGNALS:
    void settled();

private:
    int m_pending = 0;
};

} // namespace qcode
