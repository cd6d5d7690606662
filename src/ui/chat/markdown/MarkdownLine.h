#pragma once

#include <QString>
#include <QStringView>

#include <optional>

namespace qcode {

// A code fence's opening line: ``` or ~~~ (three or more), its indentation
// and its info string (CommonMark §4.5).
struct FenceMarker {
    QChar marker;
    int length = 0;
    int indent = 0;
    QString info;
};

// What the block splitter and the fence parser need to know about one line
// of Markdown (without its line break). Columns count a tab as reaching the
// next multiple of four, as CommonMark does.
namespace MarkdownLine {

bool isBlank(QStringView line);
int indentation(QStringView line);
std::optional<FenceMarker> fenceOpener(QStringView line);
bool closesFence(QStringView line, const FenceMarker &fence);
bool isAtxHeading(QStringView line);
// "- x", "* x", "+ x", "1. x", "2) x" with at most three spaces before.
bool isListItem(QStringView line);
bool isBlockQuote(QStringView line);
// The line with the markers of the containers it may sit in (indentation,
// "> ", list markers) removed: where a fence inside a list or a quote starts.
QStringView withoutContainerMarkers(QStringView line);
// The line without its indentation and "> " markers: where a fence inside a
// list or quote may close (a list marker there starts an item instead).
QStringView withoutQuoteMarkers(QStringView line);

} // namespace MarkdownLine

} // namespace qcode
