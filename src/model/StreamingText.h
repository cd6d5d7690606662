#pragma once

#include <QHash>
#include <QString>

#include <optional>

#include "Part.h"

namespace qcode {

// The whole text of every text and reasoning part that is still streaming,
// in any session. The engine saves a streaming part's text only now and
// then (PartWriter's interval) while its deltas reach the views at once, so
// a view that reads such a part from the database mid-stream gets a prefix;
// this fills in the rest. A part is forgotten when its final form comes.
class StreamingText
{
public:
    void partUpdated(const Part &part);
    void partDelta(const QString &partID, const QString &field, const QString &delta);
    void partRemoved(const QString &partID) { m_texts.remove(partID); }

    std::optional<QString> text(const QString &partID) const;
    // Replaces the text of `part` with the streamed one, if it streams.
    void overlay(Part &part) const;
    qsizetype size() const { return m_texts.size(); }

private:
    QHash<QString, QString> m_texts; // by part id
};

} // namespace qcode
