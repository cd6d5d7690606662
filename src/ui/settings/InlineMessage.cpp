#include "InlineMessage.h"

using namespace Qt::StringLiterals;

namespace qcode {

InlineMessage::InlineMessage(QWidget *parent) : QLabel(parent)
{
    setWordWrap(true);
    setTextFormat(Qt::PlainText);
    setTextInteractionFlags(Qt::TextSelectableByMouse);
    setVisible(false);
}

void InlineMessage::say(Kind kind, const QString &text)
{
    m_kind = kind;
    // Mid-tone colours read on light and dark palettes alike.
    switch (kind) {
    case Kind::Error:
        setStyleSheet(u"color: #d9413b;"_s);
        break;
    case Kind::Success:
        setStyleSheet(u"color: #2f9e5b;"_s);
        break;
    case Kind::Info:
    case Kind::None:
        setStyleSheet(QString());
        break;
    }
    setText(text);
    setVisible(kind != Kind::None && !text.isEmpty());
}

} // namespace qcode
