#pragma once

#include <QPointer>
#include <QString>

#include <QCoro/QCoroTask>

#include "engine/session/loop/AbortSignal.h"
#include "engine/session/SessionEvents.h"

namespace qcode {

// The person's answer to a PermissionRequest; `message` is the feedback of
// RejectWithMessage, which the model reads.
struct PermissionAnswer {
    PermissionReply reply = PermissionReply::Reject;
    QString message;
    // The answer came from a rule, not from the person. A rule's Reject is
    // OpenCode's DeniedError: the model is told and the loop goes on.
    bool byRule = false;

    bool allows() const { return reply == PermissionReply::Once || reply == PermissionReply::Always; }
};

// Asks the person (through the permission rules of issue #5 first: an
// allow rule answers Once without asking, a deny rule Reject). The
// implementation gives the request its id, publishes PermissionAsked and
// PermissionReplied, and answers Reject at once when `abort` fires or is
// gone, so a stopped prompt never waits on a dialog.
class PermissionAsker
{
public:
    virtual ~PermissionAsker() = default;
    virtual QCoro::Task<PermissionAnswer> ask(PermissionRequest request, QPointer<AbortSignal> abort) = 0;

protected:
    PermissionAsker() = default;
    PermissionAsker(const PermissionAsker &) = default;
    PermissionAsker &operator=(const PermissionAsker &) = default;
};

} // namespace qcode
