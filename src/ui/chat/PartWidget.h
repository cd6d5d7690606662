#pragma once

#include <QWidget>

#include "model/Message.h"
#include "model/Part.h"

namespace qcode {

// One part of a message on screen. The message widget creates one per
// visible part (PartWidgetFactory) and hands it every later state of the
// part; streamed text arrives as appended deltas, so a long answer is
// never rendered again from the start.
class PartWidget : public QWidget
{
    Q_OBJECT

public:
    using QWidget::QWidget;

    virtual void setPart(const Part &part, const Message &message) = 0;
    // `delta` was appended to the part's `field`; the default renders the
    // whole new part (`part` already holds the appended text).
    virtual void appendDelta(const Part &part, const Message &message, const QString &field, const QString &delta);
    // The part's text as Markdown, for "copy message"; empty for parts
    // that have none worth copying.
    virtual QString markdown() const { return {}; }

Q_SIGNALS:
    void openSessionRequested(const QString &sessionID);
};

} // namespace qcode
