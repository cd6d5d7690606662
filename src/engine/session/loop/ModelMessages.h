#pragma once

#include <QList>
#include <QString>

#include "engine/provider/ProviderRequest.h"
#include "engine/provider/WireProtocol.h"
#include "model/Part.h"

namespace qcode {

// The model a conversation is about to be sent to, as far as converting
// history depends on it.
struct ModelTarget {
    QString providerID;
    QString modelID;
    // Whether tool results may carry images and PDFs (OpenCode: the
    // Anthropic, OpenAI and Bedrock SDKs, and Google's for Gemini 3).
    bool mediaInToolResults = false;

    static bool mediaInToolResultsFor(WireProtocol protocol, const QString &modelID);
};

struct ModelMessageOptions {
    // Compaction sends history without images and PDFs: they become a
    // "[Attached mime: name]" note.
    bool stripMedia = false;
};

// OpenCode's MessageV2.toModelMessages (reference 4): stored history,
// oldest first, to the protocol-neutral messages a request carries. Every
// tool call gets a result, so no provider ever sees a dangling call.
QList<ModelMessage> toModelMessages(const QList<MessageWithParts> &history, const ModelTarget &target,
                                    const ModelMessageOptions &options = {});

} // namespace qcode
