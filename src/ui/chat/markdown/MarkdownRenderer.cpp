#include "MarkdownRenderer.h"

#include <QTextBlock>
#include <QTextCursor>
#include <QTextDocument>
#include <QTextDocumentFragment>
#include <QTextList>
#include <QTextTable>
#include <QFontMetricsF>

#include "FencedCode.h"
#include "MarkdownDocument.h"

using namespace Qt::StringLiterals;

namespace qcode {
namespace {

// Beyond these sizes a block is shown in part (the source and Copy keep it
// all): laying out a megabyte of wrapped words takes Qt seconds.
constexpr qsizetype MaxShownBlockLength = 100 * 1024;
constexpr qsizetype MaxShownCodeLength = 200 * 1024;
constexpr qsizetype MaxShownCodeLineLength = 10 * 1024;

// Qt's importer takes time quadratic in a block's runs of emphasis
// delimiters ("a*" 8,000 times takes seconds); a block with more than this
// is shown as its plain source.
constexpr int MaxEmphasisRuns = 1000;

// GitHub's dialect without raw HTML: in answers "<vector>" or "<T>" outside
// backticks is text, and Qt's importer would swallow the rest of the
// paragraph looking for the closing tag.
constexpr auto Features = QTextDocument::MarkdownFeatures(QTextDocument::MarkdownDialectGitHub
                                                          | QTextDocument::MarkdownNoHTML);

int emphasisRuns(QStringView source)
{
    int runs = 0;
    QChar previous;
    for (const QChar c : source) {
        if ((c == u'*' || c == u'_') && c != previous)
            ++runs;
        previous = c;
    }
    return runs;
}

bool isCode(const QTextBlock &block)
{
    return block.isValid() && block.blockFormat().hasProperty(QTextFormat::BlockCodeLanguage);
}

QString languageOf(const QTextBlock &block)
{
    return block.blockFormat().stringProperty(QTextFormat::BlockCodeLanguage);
}

// Inserting a fragment merges its first block into the block at the cursor,
// losing that block's format (a heading, a list item). Starting the fragment
// with an empty plain block makes that merge harmless.
void startWithPlainBlock(QTextDocument &fragment)
{
    QTextBlock first = fragment.begin();
    if (!first.text().isEmpty() || first.textList()) {
        QTextCursor(&fragment).insertBlock();
        first = fragment.begin();
    }
    QTextCursor plain(first);
    plain.setBlockFormat(QTextBlockFormat());
    plain.setBlockCharFormat(QTextCharFormat());
}

// Line breaks at the very end of a block change nothing on the page
// ("para" and "para\n" render alike), so such a change needs no rendering.
bool rendersAlike(QStringView a, QStringView b)
{
    while (a.endsWith(u'\n'))
        a.chop(1);
    while (b.endsWith(u'\n'))
        b.chop(1);
    return a == b;
}

// Room for the reader: space above headings and around lists and quotes,
// tables with one thin border between cells, quotes set in from the left,
// dimmed and in italics, as quotes read. Applied to a closed block's
// fragment once, before it joins the document.
void giveRoom(QTextDocument &fragment)
{
    const qreal line = QFontMetricsF(fragment.defaultFont()).lineSpacing();
    for (QTextBlock block = fragment.begin(); block.isValid(); block = block.next()) {
        QTextBlockFormat format = block.blockFormat();
        bool changed = false;
        if (format.headingLevel() > 0) {
            format.setTopMargin(line * 0.9);
            format.setBottomMargin(line * 0.35);
            changed = true;
        }
        if (block.textList() && !block.previous().textList()) {
            format.setTopMargin(std::max(format.topMargin(), line * 0.3));
            changed = true;
        }
        if (format.intProperty(QTextFormat::BlockQuoteLevel) > 0) {
            format.setLeftMargin(format.leftMargin() + line * 0.8);
            format.setTopMargin(std::max(format.topMargin(), line * 0.3));
            format.setBottomMargin(std::max(format.bottomMargin(), line * 0.3));
            changed = true;
            QTextCharFormat quoted;
            quoted.setFontItalic(true);
            QTextCursor whole(block);
            whole.movePosition(QTextCursor::EndOfBlock, QTextCursor::KeepAnchor);
            whole.mergeCharFormat(quoted);
        }
        if (changed)
            QTextCursor(block).setBlockFormat(format);
    }
    for (QTextFrame *frame : fragment.rootFrame()->childFrames()) {
        auto *table = qobject_cast<QTextTable *>(frame);
        if (!table)
            continue;
        QTextTableFormat format = table->format();
        format.setBorderCollapse(true);
        format.setBorder(1);
        format.setBorderStyle(QTextFrameFormat::BorderStyle_Solid);
        format.setCellSpacing(0);
        format.setCellPadding(4);
        format.setTopMargin(line * 0.3);
        format.setBottomMargin(line * 0.3);
        table->setFormat(format);
    }
}

} // namespace

MarkdownRenderer::MarkdownRenderer(QTextDocument *document) : m_document(document) {}

void MarkdownRenderer::setFormats(const CodeBlockFormats &formats)
{
    m_formats = formats;
}

void MarkdownRenderer::clear()
{
    m_openFence.reset();
    m_document->clear();
    m_codes.clear();
    m_hasNotes = false;
    m_committedCodes = 0;
    m_openStart = 0;
    m_openSource.clear();
}

void MarkdownRenderer::update(const QStringList &closed, const QString &open)
{
    QTextCursor edit(m_document);
    edit.beginEditBlock();
    for (const QString &block : closed)
        closeBlock(block);
    if (!rendersAlike(open, m_openSource))
        renderOpen(open);
    edit.endEditBlock();
}

std::optional<QString> MarkdownRenderer::code(int index) const
{
    if (index < 0 || index >= m_codes.size())
        return std::nullopt;
    return m_codes.at(index);
}

void MarkdownRenderer::closeBlock(const QString &source)
{
    // A block that closed the way it was last shown (a paragraph ended by a
    // blank line) is already right.
    if (!rendersAlike(source, m_openSource) && !growOpenFence(source)) {
        removeOpen();
        render(source);
    }
    commit();
}

void MarkdownRenderer::renderOpen(const QString &source)
{
    if (!growOpenFence(source)) {
        removeOpen();
        if (!source.isEmpty())
            render(source);
    }
    m_openSource = source;
}

bool MarkdownRenderer::growOpenFence(const QString &source)
{
    // Only once the opening line is complete is the language (the header) final.
    if (!m_openFence || !m_openSource.contains(u'\n') || !source.startsWith(m_openSource))
        return false;
    const std::optional<FencedCode> code = FencedCode::parse(source);
    if (!code)
        return false;
    m_codes[m_openFence->codeIndex()] = code->code();
    m_openFence->grow(shownPart(*code));
    ++m_renderedBlocks;
    return true;
}

FencedCode MarkdownRenderer::shownPart(const FencedCode &code) const
{
    FencedCode shown = code;
    if (const qsizetype dropped = shown.truncate(MaxShownCodeLength, MaxShownCodeLineLength))
        shown.lines.append(tr("… %n more line(s) not shown here; Copy copies them all", nullptr, int(dropped)));
    return shown;
}

void MarkdownRenderer::removeOpen()
{
    m_openFence.reset();
    m_openSource.clear();
    m_codes.resize(m_committedCodes);
    QTextCursor cursor(m_document);
    cursor.setPosition(m_openStart);
    cursor.movePosition(QTextCursor::End, QTextCursor::KeepAnchor);
    cursor.removeSelectedText();
    if (m_openStart == 0) {
        // The first block survives every removal; it must not keep the old one's looks.
        cursor.setBlockFormat(QTextBlockFormat());
        cursor.setBlockCharFormat(QTextCharFormat());
        cursor.setCharFormat(QTextCharFormat());
    }
}

void MarkdownRenderer::render(const QString &source)
{
    ++m_renderedBlocks;
    if (const std::optional<FencedCode> code = FencedCode::parse(source)) {
        m_codes.append(code->code());
        m_openFence.emplace(m_document, &m_formats, int(m_codes.size() - 1));
        m_openFence->write(shownPart(*code));
        return;
    }
    const QString shown = source.left(MaxShownBlockLength);
    if (emphasisRuns(shown) > MaxEmphasisRuns)
        renderPlain(shown);
    else
        renderMarkdown(shown);
    if (source.size() > MaxShownBlockLength)
        appendNote(tr("… %n more character(s) not shown here", nullptr, int(source.size() - MaxShownBlockLength)));
}

void MarkdownRenderer::renderPlain(const QString &source)
{
    QTextCursor cursor = MarkdownDocument::appendBlock(m_document, QTextBlockFormat(), QTextCharFormat());
    QString text = source;
    while (text.endsWith(u'\n'))
        text.chop(1);
    cursor.insertText(text);
}

void MarkdownRenderer::appendNote(const QString &note)
{
    m_hasNotes = true;
    QTextCharFormat format;
    format.setFontItalic(true);
    QTextCursor end = MarkdownDocument::appendBlock(m_document, QTextBlockFormat(), format);
    end.insertText(note, format);
}

void MarkdownRenderer::renderMarkdown(const QString &source)
{
    QTextDocument fragment;
    fragment.setDefaultFont(m_document->defaultFont());
    fragment.setMarkdown(source, Features);
    giveRoom(fragment);
    decorateCode(fragment);
    const bool first = MarkdownDocument::isEmpty(m_document);
    if (!first)
        startWithPlainBlock(fragment);
    QTextCursor end(m_document);
    end.movePosition(QTextCursor::End);
    end.insertFragment(QTextDocumentFragment(&fragment));
}

// Code inside lists and quotes comes from Qt's importer: give it the same
// background, wrapping and Copy header as a top-level fence.
void MarkdownRenderer::decorateCode(QTextDocument &fragment)
{
    QTextBlock block = fragment.begin();
    while (block.isValid()) {
        if (!isCode(block)) {
            block = block.next();
            continue;
        }
        const QTextBlock first = block;
        const QString language = languageOf(first);
        QStringList lines;
        for (; isCode(block) && languageOf(block) == language; block = block.next()) {
            lines.append(block.text());
            QTextBlockFormat format = m_formats.code;
            format.clearProperty(QTextFormat::BlockTopMargin);
            format.clearProperty(QTextFormat::BlockBottomMargin);
            QTextCursor(block).mergeBlockFormat(format);
        }
        m_codes.append(lines.join(u'\n'));

        // The header takes the first code block's place (and its list bullet, if any).
        QTextBlockFormat codeFormat = first.blockFormat();
        QTextBlockFormat headerFormat = codeFormat;
        headerFormat.merge(m_formats.header);
        headerFormat.clearProperty(QTextFormat::BlockCodeLanguage);
        headerFormat.clearProperty(QTextFormat::BlockCodeFence);
        if (QTextList *list = first.textList()) {
            codeFormat.clearProperty(QTextFormat::ObjectIndex);
            codeFormat.setIndent(list->format().indent());
        }
        QTextCursor header(first);
        header.insertBlock(codeFormat, first.charFormat());
        header.movePosition(QTextCursor::PreviousBlock);
        header.setBlockFormat(headerFormat);
        header.setBlockCharFormat(m_formats.headerText);
        header.insertText(language.isEmpty() ? tr("code") : language, m_formats.headerText);
        header.insertText(u"   "_s, m_formats.headerText);
        header.insertText(tr("Copy"), m_formats.copyLinkFor(int(m_codes.size() - 1)));
    }
}

void MarkdownRenderer::commit()
{
    m_openFence.reset();
    m_openSource.clear();
    m_committedCodes = m_codes.size();
    m_openStart = MarkdownDocument::endPosition(m_document);
}

} // namespace qcode
