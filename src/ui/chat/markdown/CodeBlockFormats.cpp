#include "CodeBlockFormats.h"

#include <QFontDatabase>
#include <QPalette>

using namespace Qt::StringLiterals;

namespace qcode {
namespace {

const QString CopyScheme = u"qcode-copy"_s;

// `base` moved `amount` (0…1) of the way towards `towards`.
QColor mixed(const QColor &base, const QColor &towards, qreal amount)
{
    return QColor::fromRgbF(float(base.redF() + (towards.redF() - base.redF()) * amount),
                            float(base.greenF() + (towards.greenF() - base.greenF()) * amount),
                            float(base.blueF() + (towards.blueF() - base.blueF()) * amount));
}

} // namespace

CodeBlockFormats CodeBlockFormats::forPalette(const QPalette &palette)
{
    const QColor base = palette.color(QPalette::Base);
    const QColor text = palette.color(QPalette::Text);
    QFont mono = QFontDatabase::systemFont(QFontDatabase::FixedFont);

    CodeBlockFormats formats;
    formats.header.setBackground(mixed(base, text, 0.12));
    formats.header.setTopMargin(6);
    formats.header.setLeftMargin(0);
    formats.headerText.setForeground(mixed(text, base, 0.35));
    formats.headerText.setFontPointSize(qMax(1.0, QFont().pointSizeF() * 0.85));

    formats.copyLink = formats.headerText;
    formats.copyLink.setAnchor(true);
    formats.copyLink.setForeground(palette.color(QPalette::Link));
    formats.copyLink.setFontUnderline(false);

    formats.code.setBackground(mixed(base, text, 0.06));
    // Code keeps its lines: a wide block scrolls sideways (MarkdownView)
    // rather than wrapping into something that reads like other code.
    formats.code.setNonBreakableLines(true);
    formats.code.setTopMargin(0);
    formats.code.setBottomMargin(0);
    formats.codeText.setFontFamilies(mono.families());
    formats.codeText.setFontFixedPitch(true);
    return formats;
}

QTextCharFormat CodeBlockFormats::copyLinkFor(int codeIndex) const
{
    QTextCharFormat format = copyLink;
    format.setAnchorHref(copyUrl(codeIndex).toString());
    return format;
}

QTextBlockFormat CodeBlockFormats::codeBlockFor(const QString &language, QChar fence) const
{
    QTextBlockFormat format = code;
    format.setProperty(QTextFormat::BlockCodeLanguage, language);
    format.setProperty(QTextFormat::BlockCodeFence, QString(fence));
    return format;
}

QUrl CodeBlockFormats::copyUrl(int codeIndex)
{
    QUrl url;
    url.setScheme(CopyScheme);
    url.setPath(QString::number(codeIndex));
    return url;
}

std::optional<int> CodeBlockFormats::copyIndex(const QUrl &url)
{
    if (url.scheme() != CopyScheme)
        return std::nullopt;
    bool ok = false;
    const int index = url.path().toInt(&ok);
    return ok && index >= 0 ? std::optional<int>(index) : std::nullopt;
}

} // namespace qcode
