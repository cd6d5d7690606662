#include "ScriptedPermissionAsker.h"

#include <QCoro/QCoroSignal>

namespace qcode::test {

QCoro::Task<PermissionAnswer> ScriptedPermissionAsker::ask(PermissionRequest request, QPointer<AbortSignal> abort)
{
    m_requests.append(request);
    Q_EMIT asked(request.permission);
    if (m_hold && abort && !abort->isAborted())
        co_await qCoro(abort.data(), &AbortSignal::aborted);
    if (abort && abort->isAborted())
        co_return PermissionAnswer{PermissionReply::Reject, {}};
    co_return m_answer;
}

} // namespace qcode::test
