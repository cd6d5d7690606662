#pragma once

#include <QList>
#include <QObject>

#include "engine/session/asks/PermissionAsker.h"

namespace qcode::test {

// A PermissionAsker for processor tests: records each request and answers
// it with the scripted answer (Once unless told otherwise).
class ScriptedPermissionAsker : public QObject, public PermissionAsker
{
    Q_OBJECT

public:
    using QObject::QObject;

    void answerWith(PermissionAnswer answer) { m_answer = std::move(answer); }
    // Questions wait for the abort, then answer Reject, as a dialog the
    // person never answered.
    void holdUntilAbort() { m_hold = true; }

    QCoro::Task<PermissionAnswer> ask(PermissionRequest request, QPointer<AbortSignal> abort) override;

    const QList<PermissionRequest> &requests() const { return m_requests; }

Q_SIGNALS:
    void asked(const QString &permission);

private:
    PermissionAnswer m_answer{PermissionReply::Once, {}};
    bool m_hold = false;
    QList<PermissionRequest> m_requests;
};

} // namespace qcode::test
