#include "StreamingText.h"

using namespace Qt::StringLiterals;

namespace qcode {
namespace {

// The streaming text of a part, or null when the part does not stream
// (another type) or has ended.
QString *openText(Part &part)
{
    if (TextPart *text = part.as<TextPart>())
        return text->time && !text->time->end ? &text->text : nullptr;
    if (ReasoningPart *reasoning = part.as<ReasoningPart>())
        return reasoning->time.end ? nullptr : &reasoning->text;
    return nullptr;
}

} // namespace

void StreamingText::partUpdated(const Part &part)
{
    Part copy = part;
    if (const QString *text = openText(copy))
        m_texts.insert(part.id, *text);
    else
        m_texts.remove(part.id);
}

void StreamingText::partDelta(const QString &partID, const QString &field, const QString &delta)
{
    if (field != "text"_L1)
        return;
    auto found = m_texts.find(partID);
    if (found != m_texts.end())
        found->append(delta);
}

std::optional<QString> StreamingText::text(const QString &partID) const
{
    const auto found = m_texts.constFind(partID);
    return found == m_texts.constEnd() ? std::nullopt : std::optional<QString>(*found);
}

void StreamingText::overlay(Part &part) const
{
    const auto found = m_texts.constFind(part.id);
    if (found == m_texts.constEnd())
        return;
    if (QString *text = openText(part))
        *text = *found;
}

} // namespace qcode
