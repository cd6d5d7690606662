#pragma once

#include <QFrame>
#include <QList>

#include <optional>

#include "PromptChoices.h"

class QLineEdit;
class QTreeWidget;
class QTreeWidgetItem;

namespace qcode {

// The model list: a search field over the models, grouped ("Catalogue",
// "Configured", "Local servers"). It opens as a popup window (closing when
// the person clicks elsewhere) and answers by a signal; it never waits.
// Typing filters fuzzily; Up/Down move, Enter chooses, Escape closes.
class ModelPopup : public QFrame
{
    Q_OBJECT

public:
    explicit ModelPopup(QWidget *parent = nullptr);

    void setModels(const QList<ModelChoice> &models);
    void setCurrent(const std::optional<ModelChoice> &model);
    // Opens below (or above) `anchor` with an empty search.
    void popUp(QWidget *anchor);

    QLineEdit *searchField() const { return m_search; }
    QTreeWidget *tree() const { return m_tree; }
    // The models listed now, after filtering, in order.
    QList<ModelChoice> visibleModels() const;

Q_SIGNALS:
    void chosen(const qcode::ModelChoice &model);

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;
    void changeEvent(QEvent *event) override;

private:
    void retranslateUi();
    void rebuild();
    void chooseItem(QTreeWidgetItem *item);

    QList<ModelChoice> m_models;
    std::optional<ModelChoice> m_current;
    QLineEdit *m_search = nullptr;
    QTreeWidget *m_tree = nullptr;
};

} // namespace qcode
