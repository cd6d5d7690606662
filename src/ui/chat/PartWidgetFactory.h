#pragma once

#include "ChatContext.h"
#include "PartWidget.h"

namespace qcode {

// The widget that shows `part` of `message`, or null for parts that are
// bookkeeping rather than content (step markers, snapshots, the synthetic
// text qcode adds for the model).
PartWidget *createPartWidget(const Part &part, const Message &message, const ChatContext &context, QWidget *parent);

// Whether createPartWidget makes a widget for the part.
bool isVisiblePart(const Part &part);

} // namespace qcode
