#pragma once

#include <QByteArray>
#include <QList>

#include "FakeTurn.h"
#include "engine/provider/WireProtocol.h"

namespace qcode::test {

// Writes a FakeTurn as the SSE body each API documents
// (../shared/reference/provider-wire-formats.md §3.2, §4.2, §5.2, §6.2):
// one element per event, each a complete frame ending in its blank line.
// Gemini frames end in CRLF, as Google's servers send them.
class FakeStreamEncoder
{
public:
    static QList<QByteArray> encode(WireProtocol protocol, const FakeTurn &turn);
};

} // namespace qcode::test
