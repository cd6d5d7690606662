#pragma once

#include <QTextCursor>

class QTextBlockFormat;
class QTextCharFormat;
class QTextDocument;

namespace qcode {

// Appending to a QTextDocument block by block. A document always has one
// block; while it is still empty that block is the first one written, so the
// view does not start with a blank line.
namespace MarkdownDocument {

bool isEmpty(const QTextDocument *document);
// The position after the document's last character.
int endPosition(const QTextDocument *document);
// A cursor at the end of a new last block with these formats.
QTextCursor appendBlock(QTextDocument *document, const QTextBlockFormat &block, const QTextCharFormat &text);

} // namespace MarkdownDocument

} // namespace qcode
