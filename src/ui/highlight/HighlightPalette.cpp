#include "HighlightPalette.h"

#include <QColor>

namespace qcode {
namespace {

struct Colours {
    QRgb light = 0;
    QRgb dark = 0;
};

QTextCharFormat coloured(Colours colours, bool dark)
{
    QTextCharFormat format;
    format.setForeground(QColor::fromRgb(dark ? colours.dark : colours.light));
    return format;
}

QTextCharFormat diffLine(Colours text, Colours background, bool dark)
{
    QTextCharFormat format = coloured(text, dark);
    format.setBackground(QColor::fromRgb(dark ? background.dark : background.light));
    return format;
}

} // namespace

QTextCharFormat highlightFormat(HighlightStyle style, bool dark)
{
    switch (style) {
    case HighlightStyle::Normal:
        return {};
    case HighlightStyle::Keyword:
    case HighlightStyle::Preprocessor:
        return coloured({0xcf222e, 0xff7b72}, dark);
    case HighlightStyle::Type:
    case HighlightStyle::Variable:
        return coloured({0x953800, 0xffa657}, dark);
    case HighlightStyle::String:
        return coloured({0x0a3069, 0xa5d6ff}, dark);
    case HighlightStyle::Escape: {
        QTextCharFormat format = coloured({0x0a3069, 0xa5d6ff}, dark);
        format.setFontWeight(QFont::Bold);
        return format;
    }
    case HighlightStyle::Comment: {
        QTextCharFormat format = coloured({0x6e7781, 0x8b949e}, dark);
        format.setFontItalic(true);
        return format;
    }
    case HighlightStyle::Number:
    case HighlightStyle::Key:
    case HighlightStyle::DiffHeader:
        return coloured({0x0550ae, 0x79c0ff}, dark);
    case HighlightStyle::Function:
        return coloured({0x8250df, 0xd2a8ff}, dark);
    case HighlightStyle::Symbol:
        return coloured({0x57606a, 0xb1bac4}, dark);
    case HighlightStyle::Todo: {
        QTextCharFormat format = coloured({0x6e7781, 0x8b949e}, dark);
        format.setFontWeight(QFont::Bold);
        return format;
    }
    case HighlightStyle::Url: {
        QTextCharFormat format = coloured({0x0969da, 0x58a6ff}, dark);
        format.setFontUnderline(true);
        return format;
    }
    case HighlightStyle::Added:
        return diffLine({0x116329, 0xaff5b4}, {0xdafbe1, 0x033a16}, dark);
    case HighlightStyle::Removed:
        return diffLine({0x82071e, 0xffdcd7}, {0xffebe9, 0x67060c}, dark);
    }
    return {};
}

} // namespace qcode
