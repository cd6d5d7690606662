#include "ModelPopup.h"

#include <QApplication>
#include <QEvent>
#include <QHeaderView>
#include <QKeyEvent>
#include <QLineEdit>
#include <QScreen>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <algorithm>

#include "FuzzyMatcher.h"

using namespace Qt::StringLiterals;

namespace qcode {
namespace {

constexpr int ModelRole = Qt::UserRole + 1;

struct Ranked {
    qsizetype index;
    FuzzyMatch match;
    QString key;
};

QString searchKey(const ModelChoice &model)
{
    return model.label + u' ' + model.providerID + u'/' + model.modelID;
}

} // namespace

ModelPopup::ModelPopup(QWidget *parent) : QFrame(parent, Qt::Popup)
{
    setObjectName(u"modelPopup"_s);
    setFrameShape(QFrame::StyledPanel);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    m_search = new QLineEdit(this);
    m_search->setObjectName(u"modelSearch"_s);
    m_search->setClearButtonEnabled(true);
    m_search->installEventFilter(this);
    layout->addWidget(m_search);
    m_tree = new QTreeWidget(this);
    m_tree->setHeaderHidden(true);
    m_tree->setRootIsDecorated(false);
    m_tree->setColumnCount(2);
    m_tree->header()->setStretchLastSection(false);
    m_tree->header()->setSectionResizeMode(0, QHeaderView::Stretch);
    m_tree->header()->setSectionResizeMode(1, QHeaderView::ResizeToContents);
    m_tree->setFocusPolicy(Qt::NoFocus);
    layout->addWidget(m_tree);
    connect(m_search, &QLineEdit::textChanged, this, [this] { rebuild(); });
    connect(m_tree, &QTreeWidget::itemClicked, this, [this](QTreeWidgetItem *item) { chooseItem(item); });
    retranslateUi();
}

void ModelPopup::retranslateUi()
{
    m_search->setPlaceholderText(tr("Search models"));
    rebuild(); // the "Other" group's name
}

void ModelPopup::changeEvent(QEvent *event)
{
    QFrame::changeEvent(event);
    if (event->type() == QEvent::LanguageChange)
        retranslateUi();
}

void ModelPopup::setModels(const QList<ModelChoice> &models)
{
    m_models = models;
    rebuild();
}

void ModelPopup::setCurrent(const std::optional<ModelChoice> &model)
{
    m_current = model;
    rebuild();
}

void ModelPopup::rebuild()
{
    m_tree->clear();
    const FuzzyMatcher matcher(m_search->text());
    QList<Ranked> ranked;
    for (qsizetype i = 0; i < m_models.size(); ++i) {
        const QString key = searchKey(m_models.at(i));
        if (auto match = matcher.match(key))
            ranked.append(Ranked{i, *match, key});
    }
    if (!matcher.isEmpty())
        std::stable_sort(ranked.begin(), ranked.end(), [](const Ranked &a, const Ranked &b) {
            return FuzzyMatcher::ranksBefore(a.match, a.key, b.match, b.key);
        });

    // Groups keep the order they first appear in; models inside a group
    // keep the ranking.
    QList<QTreeWidgetItem *> groups;
    QTreeWidgetItem *firstModel = nullptr;
    QTreeWidgetItem *currentItem = nullptr;
    for (const Ranked &entry : std::as_const(ranked)) {
        const ModelChoice &model = m_models.at(entry.index);
        const QString groupName = model.group.isEmpty() ? tr("Other") : model.group;
        auto group = std::find_if(groups.begin(), groups.end(),
                                  [&](QTreeWidgetItem *item) { return item->text(0) == groupName; });
        QTreeWidgetItem *parent = nullptr;
        if (group == groups.end()) {
            parent = new QTreeWidgetItem(m_tree, QStringList{groupName});
            parent->setFlags(Qt::ItemIsEnabled);
            QFont bold = parent->font(0);
            bold.setBold(true);
            parent->setFont(0, bold);
            groups.append(parent);
        } else {
            parent = *group;
        }
        auto *item = new QTreeWidgetItem(parent, QStringList{model.label.isEmpty() ? model.modelID : model.label,
                                                             model.providerID});
        item->setData(0, ModelRole, QVariant::fromValue(model));
        item->setToolTip(0, model.providerID + u'/' + model.modelID);
        item->setForeground(1, m_tree->palette().brush(QPalette::Disabled, QPalette::Text));
        if (!firstModel)
            firstModel = item;
        if (m_current && m_current->isSameModel(model)) {
            currentItem = item;
            QFont bold = item->font(0);
            bold.setBold(true);
            item->setFont(0, bold);
        }
    }
    m_tree->expandAll();
    // With a search, the best match is ready for Enter; without, the model
    // in use.
    QTreeWidgetItem *select = (!matcher.isEmpty() || !currentItem) ? firstModel : currentItem;
    if (select) {
        m_tree->setCurrentItem(select);
        m_tree->scrollToItem(select);
    }
}

QList<ModelChoice> ModelPopup::visibleModels() const
{
    QList<ModelChoice> out;
    for (int g = 0; g < m_tree->topLevelItemCount(); ++g)
        for (int i = 0; i < m_tree->topLevelItem(g)->childCount(); ++i)
            out.append(m_tree->topLevelItem(g)->child(i)->data(0, ModelRole).value<ModelChoice>());
    return out;
}

void ModelPopup::chooseItem(QTreeWidgetItem *item)
{
    if (!item || !item->data(0, ModelRole).isValid())
        return;
    const ModelChoice model = item->data(0, ModelRole).value<ModelChoice>();
    hide();
    Q_EMIT chosen(model);
}

bool ModelPopup::eventFilter(QObject *watched, QEvent *event)
{
    if (watched != m_search || event->type() != QEvent::KeyPress)
        return QFrame::eventFilter(watched, event);
    auto *key = static_cast<QKeyEvent *>(event);
    switch (key->key()) {
    case Qt::Key_Up:
    case Qt::Key_Down:
    case Qt::Key_PageUp:
    case Qt::Key_PageDown: {
        // Moves over models only, skipping the group headings.
        QTreeWidgetItem *item = m_tree->currentItem();
        const bool down = key->key() == Qt::Key_Down || key->key() == Qt::Key_PageDown;
        for (QTreeWidgetItem *next = item; next;) {
            next = down ? m_tree->itemBelow(next) : m_tree->itemAbove(next);
            if (next && next->data(0, ModelRole).isValid()) {
                m_tree->setCurrentItem(next);
                break;
            }
        }
        return true;
    }
    case Qt::Key_Return:
    case Qt::Key_Enter:
        chooseItem(m_tree->currentItem());
        return true;
    case Qt::Key_Escape:
        hide();
        return true;
    default:
        return false;
    }
}

void ModelPopup::popUp(QWidget *anchor)
{
    m_search->clear();
    rebuild();
    const QSize size(std::max(anchor->width(), fontMetrics().averageCharWidth() * 48),
                     fontMetrics().height() * 20);
    QPoint at = anchor->mapToGlobal(QPoint(0, anchor->height()));
    if (const QScreen *screen = anchor->screen()) {
        const QRect available = screen->availableGeometry();
        if (at.y() + size.height() > available.bottom())
            at.setY(anchor->mapToGlobal(QPoint(0, 0)).y() - size.height());
        at.setX(std::clamp(at.x(), available.left(), std::max(available.left(), available.right() - size.width())));
    }
    setGeometry(QRect(at, size));
    show();
    m_search->setFocus(Qt::PopupFocusReason);
}

} // namespace qcode
