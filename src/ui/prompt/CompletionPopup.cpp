#include "CompletionPopup.h"

#include <QListWidget>
#include <QStyle>
#include <QVBoxLayout>

#include "CompletionDelegate.h"

namespace qcode {
namespace {

QString prefixFor(CompletionItem::Kind kind)
{
    switch (kind) {
    case CompletionItem::Kind::Command:
    case CompletionItem::Kind::CustomCommand:
        return QStringLiteral("/");
    default:
        return QStringLiteral("@");
    }
}

} // namespace

CompletionPopup::CompletionPopup(QWidget *parent) : QFrame(parent)
{
    setObjectName(QStringLiteral("completionPopup"));
    setFrameShape(QFrame::StyledPanel);
    setAutoFillBackground(true);
    setFocusPolicy(Qt::NoFocus);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(1, 1, 1, 1);
    m_list = new QListWidget(this);
    m_list->setFocusPolicy(Qt::NoFocus);
    m_list->setItemDelegate(new CompletionDelegate(m_list));
    m_list->setUniformItemSizes(true);
    m_list->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    layout->addWidget(m_list);
    connect(m_list, &QListWidget::itemClicked, this,
            [this](QListWidgetItem *item) { Q_EMIT activated(m_list->row(item)); });
    hide();
}

void CompletionPopup::setItems(const QList<CompletionItem> &items)
{
    m_items = items;
    m_list->clear();
    const QIcon fileIcon = style()->standardIcon(QStyle::SP_FileIcon);
    const QIcon folderIcon = style()->standardIcon(QStyle::SP_DirIcon);
    for (const CompletionItem &item : items) {
        const QString prefix = prefixFor(item.kind);
        auto *row = new QListWidgetItem(prefix + item.value, m_list);
        if (item.kind == CompletionItem::Kind::File)
            row->setIcon(fileIcon);
        else if (item.kind == CompletionItem::Kind::Folder)
            row->setIcon(folderIcon);
        QVariantList matched;
        for (int position : item.matched)
            matched.append(position + int(prefix.size()));
        row->setData(CompletionDelegate::DetailRole, item.detail);
        row->setData(CompletionDelegate::MatchedRole, matched);
        row->setToolTip(item.detail.isEmpty() ? item.value : item.value + QLatin1Char('\n') + item.detail);
    }
    if (!items.isEmpty())
        m_list->setCurrentRow(0);
}

int CompletionPopup::currentRow() const
{
    return m_list->currentRow();
}

void CompletionPopup::setCurrentRow(int row)
{
    m_list->setCurrentRow(row);
}

void CompletionPopup::moveCurrent(int delta)
{
    const int count = m_list->count();
    if (count == 0)
        return;
    const int row = ((currentRow() + delta) % count + count) % count;
    m_list->setCurrentRow(row);
    m_list->scrollToItem(m_list->item(row));
}

void CompletionPopup::showAt(QWidget *anchor)
{
    QWidget *host = anchor->window();
    if (parentWidget() != host)
        setParent(host); // an overlay inside the window: no separate window to place or focus
    const int rowHeight = std::max(1, m_list->sizeHintForRow(0));
    const int rows = std::min<int>(VisibleRows, int(m_items.size()));
    const int height = rows * rowHeight + 2 * m_list->frameWidth() + 2;
    const int width = std::min(host->width(), std::max(anchor->width(), fontMetrics().averageCharWidth() * 50));
    const QPoint topLeft = anchor->mapTo(host, QPoint(0, 0));
    int y = topLeft.y() - height;
    if (y < 0)
        y = std::min(topLeft.y() + anchor->height(), std::max(0, host->height() - height));
    const int x = std::clamp(topLeft.x(), 0, std::max(0, host->width() - width));
    setGeometry(x, y, width, height);
    show();
    raise();
}

} // namespace qcode
