#include "MarkdownDocument.h"

#include <QTextBlockFormat>
#include <QTextCharFormat>
#include <QTextDocument>

namespace qcode::MarkdownDocument {

bool isEmpty(const QTextDocument *document)
{
    return document->characterCount() <= 1;
}

int endPosition(const QTextDocument *document)
{
    return document->characterCount() - 1;
}

QTextCursor appendBlock(QTextDocument *document, const QTextBlockFormat &block, const QTextCharFormat &text)
{
    QTextCursor cursor(document);
    cursor.movePosition(QTextCursor::End);
    if (isEmpty(document)) {
        cursor.setBlockFormat(block);
        cursor.setBlockCharFormat(text);
        cursor.setCharFormat(text);
    } else {
        cursor.insertBlock(block, text);
    }
    return cursor;
}

} // namespace qcode::MarkdownDocument
