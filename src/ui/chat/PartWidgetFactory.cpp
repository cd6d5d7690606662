#include "PartWidgetFactory.h"

#include "model/Overloaded.h"
#include "parts/AssistantTextWidget.h"
#include "parts/CompactionDivider.h"
#include "parts/FileChipWidget.h"
#include "parts/NoteWidget.h"
#include "parts/ReasoningWidget.h"
#include "parts/ToolPartWidget.h"
#include "parts/UserTextWidget.h"

using namespace Qt::StringLiterals;

namespace qcode {

bool isVisiblePart(const Part &part)
{
    return std::visit(Overloaded{
                          [](const TextPart &text) { return !text.synthetic.value_or(false); },
                          // The engine marks the copies of attached files it
                          // reads for the model; the person's own stays.
                          [&part](const FilePart &) { return !part.extra.value("synthetic"_L1).toBool(); },
                          [](const ReasoningPart &) { return true; },
                          [](const ToolPart &) { return true; },
                          [](const StepStartPart &) { return false; },
                          [](const StepFinishPart &) { return false; },
                          [](const SnapshotPart &) { return false; },
                          [](const PatchPart &patch) { return !patch.files.isEmpty(); },
                          [](const auto &) { return true; },
                      },
                      part.body);
}

PartWidget *createPartWidget(const Part &part, const Message &message, const ChatContext &context, QWidget *parent)
{
    if (!isVisiblePart(part))
        return nullptr;
    PartWidget *widget = std::visit(Overloaded{
                                        [&context, &message, parent](const TextPart &) -> PartWidget * {
                                            if (message.isUser())
                                                return new UserTextWidget(parent);
                                            return new AssistantTextWidget(context, parent);
                                        },
                                        [&context, parent](const ReasoningPart &) -> PartWidget * {
                                            return new ReasoningWidget(context, parent);
                                        },
                                        [parent](const FilePart &) -> PartWidget * { return new FileChipWidget(parent); },
                                        [&context, parent](const ToolPart &) -> PartWidget * {
                                            return new ToolPartWidget(context, parent);
                                        },
                                        [parent](const CompactionPart &) -> PartWidget * {
                                            return new CompactionDivider(parent);
                                        },
                                        [parent](const auto &) -> PartWidget * { return new NoteWidget(parent); },
                                    },
                                    part.body);
    widget->setPart(part, message);
    return widget;
}

} // namespace qcode
