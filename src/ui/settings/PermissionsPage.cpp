#include "PermissionsPage.h"

#include <QComboBox>
#include <QDir>
#include <QEvent>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QJsonObject>
#include <QLabel>
#include <QPushButton>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <utility>

#include "InlineMessage.h"
#include "SettingsLogging.h"
#include "engine/Engine.h"
#include "engine/agent/PermissionRules.h"
#include "model/Store.h"
#include "ui/support/FormLabels.h"

using namespace Qt::StringLiterals;

namespace qcode {

namespace {

const QString CustomRules = u"custom"_s;

struct PermissionKey {
    QString key;
    QString description;
    QString builtIn; // what happens while qcode.json says nothing
};

QList<PermissionKey> keys()
{
    const QString allow = PermissionsPage::tr("allow");
    return {
        {u"read"_s, PermissionsPage::tr("Read files"), PermissionsPage::tr("allow; ask for .env files")},
        {u"edit"_s, PermissionsPage::tr("Change files (edit, write, patch)"), allow},
        {u"glob"_s, PermissionsPage::tr("Find files by name"), allow},
        {u"grep"_s, PermissionsPage::tr("Search in files"), allow},
        {u"list"_s, PermissionsPage::tr("List folders"), allow},
        {u"bash"_s, PermissionsPage::tr("Run shell commands"), allow},
        {u"task"_s, PermissionsPage::tr("Start subagents"), allow},
        {u"webfetch"_s, PermissionsPage::tr("Fetch web pages"), allow},
        {u"todowrite"_s, PermissionsPage::tr("Update the to-do list"), allow},
        {u"todoread"_s, PermissionsPage::tr("Read the to-do list"), allow},
        {u"question"_s, PermissionsPage::tr("Ask you questions"), PermissionsPage::tr("allow for build and plan")},
        {u"external_directory"_s, PermissionsPage::tr("Touch files outside the project"), PermissionsPage::tr("ask")},
        {u"doom_loop"_s, PermissionsPage::tr("Repeat the same tool call over and over"), PermissionsPage::tr("ask")},
    };
}

} // namespace

QStringList PermissionsPage::permissionKeys()
{
    QStringList out;
    for (const PermissionKey &k : keys())
        out.append(k.key);
    return out;
}

PermissionsPage::PermissionsPage(const SettingsContext &context, QWidget *parent)
    : QWidget(parent)
    , m_writer(context.configDirectory)
    , m_engine(context.engine)
    , m_store(context.store)
    , m_projectID(context.projectID)
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(createDefaultsBox());
    // The rules the config sets beside the answers saved here: together
    // they are what decides whether qcode asks.
    auto *rules = new QHBoxLayout;
    rules->addWidget(createConfigRulesBox(), 1);
    rules->addWidget(createApprovalsBox(), 1);
    layout->addLayout(rules, 1);
    showConfigRules(PermissionRules::fromConfig(context.config.value(u"permission"_s), QDir::homePath()));
    loadDefaults();
    loadApprovals();
    retranslateUi();

    if (m_engine) {
        connect(m_engine, &Engine::projectApprovalsChanged, this,
                [this](const QString &projectID, const PermissionRuleset &rules) {
                    if (projectID != m_projectID)
                        return;
                    const bool removing = std::exchange(m_removing, false);
                    showApprovals(rules);
                    if (removing)
                        m_approvalsMessage->showSuccess(tr("Removed. qcode asks again the next time."));
                });
        connect(m_engine, &Engine::sessionError, this,
                [this](const std::optional<QString> &sessionID, const NamedError &error) {
                    // Approvals that cannot be saved come back as an error of no session.
                    if (sessionID || !std::exchange(m_removing, false))
                        return;
                    m_delete->setEnabled(!m_approvalTree->selectedItems().isEmpty());
                    m_approvalsMessage->showError(tr("The answers were not removed: %1").arg(error.message()));
                });
    }
}

void PermissionsPage::retranslateUi()
{
    m_defaultsBox->setTitle(tr("What the agent may do without asking"));
    for (const PermissionKey &k : keys()) {
        QComboBox *combo = m_combos.value(k.key);
        combo->setItemText(combo->findData(QString()), tr("Default (%1)").arg(k.builtIn));
        combo->setItemText(combo->findData(u"allow"_s), tr("Allow"));
        combo->setItemText(combo->findData(u"ask"_s), tr("Ask"));
        combo->setItemText(combo->findData(u"deny"_s), tr("Deny"));
        if (const int custom = combo->findData(CustomRules); custom >= 0)
            combo->setItemText(custom, tr("Custom rules (%n pattern(s))", nullptr, m_customPatterns.value(k.key)));
        QLabel *label = m_labels.value(k.key);
        label->setText(k.description);
        label->setToolTip(tr("Permission \"%1\"").arg(k.key));
    }
    m_configRulesBox->setTitle(tr("Rules from the configuration"));
    m_configRulesTree->setHeaderLabels({tr("Permission"), tr("Pattern"), tr("Action")});
    for (int i = 0; i < m_configRulesTree->topLevelItemCount(); ++i) {
        QTreeWidgetItem *item = m_configRulesTree->topLevelItem(i);
        item->setText(2, actionWord(PermissionAction(item->data(2, Qt::UserRole).toInt())));
    }
    m_configRulesNote->setText(m_configRulesTree->topLevelItemCount() == 0
                                   ? tr("The configuration sets no rules: the defaults above apply.")
                                   : tr("Later rules win. Change them in the configuration file."));
    m_approvalsBox->setTitle(tr("Answered \"Always\" in this project"));
    m_approvalTree->setHeaderLabels({tr("Permission"), tr("Pattern")});
    m_delete->setText(tr("Delete"));
    // Other words there answer what the person did, in the words of the moment.
    if (m_approvalsMessage->kind() == InlineMessage::Kind::Info && !m_removing)
        showApprovalsNote();
}

void PermissionsPage::changeEvent(QEvent *event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::LanguageChange)
        retranslateUi();
}

QWidget *PermissionsPage::createDefaultsBox()
{
    auto *box = new QGroupBox(this);
    m_defaultsBox = box;
    auto *form = new QFormLayout(box);
    for (const PermissionKey &k : keys()) {
        auto *combo = new QComboBox(box);
        combo->setObjectName(u"permissionCombo_"_s + k.key);
        for (const QString &action : {QString(), u"allow"_s, u"ask"_s, u"deny"_s})
            combo->addItem(QString(), action);
        m_labels.insert(k.key, addFormRow(form, combo));
        m_combos.insert(k.key, combo);
        connect(combo, &QComboBox::activated, this, [this, key = k.key, combo] { saveDefault(key, combo); });
    }
    m_defaultsMessage = new InlineMessage(box);
    m_defaultsMessage->setObjectName(u"permissionsMessage"_s);
    form->addRow(m_defaultsMessage);
    return box;
}

void PermissionsPage::loadDefaults()
{
    const Result<QJsonObject> json = m_writer.read();
    if (!json) {
        m_defaultsMessage->showError(json.errorMessage());
        return;
    }
    const QJsonValue permission = json->value("permission"_L1);
    const QJsonObject map = permission.toObject();
    for (auto it = m_combos.begin(); it != m_combos.end(); ++it) {
        QComboBox *combo = it.value();
        // A bare action applies to every key.
        const QJsonValue value = permission.isString() ? permission : map.value(it.key());
        int index = value.isString() ? combo->findData(value.toString()) : 0;
        if (value.isObject()) {
            const QJsonObject patterns = value.toObject();
            m_customPatterns.insert(it.key(), int(patterns.size()));
            combo->addItem(QString(), CustomRules);
            QStringList lines;
            for (auto p = patterns.begin(); p != patterns.end(); ++p)
                lines.append(u"%1 → %2"_s.arg(p.key(), p.value().toString()));
            combo->setItemData(combo->count() - 1, lines.join(QLatin1Char('\n')), Qt::ToolTipRole);
            index = combo->count() - 1;
        }
        combo->setCurrentIndex(std::max(0, index));
        m_savedIndex.insert(it.key(), combo->currentIndex());
    }
}

void PermissionsPage::saveDefault(const QString &key, QComboBox *combo)
{
    const QString choice = combo->currentData().toString();
    if (choice == CustomRules || combo->currentIndex() == m_savedIndex.value(key))
        return;
    const Result<void> written = m_writer.setPermissionAction(key, permissionActionFromName(choice));
    if (!written) {
        combo->setCurrentIndex(m_savedIndex.value(key));
        m_defaultsMessage->showError(tr("Not saved: %1").arg(written.errorMessage()));
        return;
    }
    const int custom = combo->findData(CustomRules);
    if (custom >= 0)
        combo->removeItem(custom); // those patterns are replaced now
    m_savedIndex.insert(key, combo->currentIndex());
    m_defaultsMessage->showSuccess(choice.isEmpty() ? tr("Saved: %1 is back to the default.").arg(key)
                                                    : tr("Saved: %1 is set to %2.").arg(key, choice));
}

QString PermissionsPage::actionWord(PermissionAction action)
{
    switch (action) {
    case PermissionAction::Allow:
        return tr("Allow");
    case PermissionAction::Deny:
        return tr("Deny");
    case PermissionAction::Ask:
        break;
    }
    return tr("Ask");
}

QWidget *PermissionsPage::createConfigRulesBox()
{
    auto *box = new QGroupBox(this);
    m_configRulesBox = box;
    m_configRulesTree = new QTreeWidget(box);
    m_configRulesTree->setObjectName(u"configRulesTree"_s);
    m_configRulesTree->setColumnCount(3);
    m_configRulesTree->setRootIsDecorated(false);
    m_configRulesTree->setSelectionMode(QAbstractItemView::NoSelection);
    m_configRulesTree->header()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
    m_configRulesNote = new QLabel(box);
    m_configRulesNote->setObjectName(u"configRulesNote"_s);
    m_configRulesNote->setWordWrap(true);
    auto *layout = new QVBoxLayout(box);
    layout->addWidget(m_configRulesTree);
    layout->addWidget(m_configRulesNote);
    return box;
}

void PermissionsPage::showConfigRules(const PermissionRuleset &rules)
{
    m_configRulesTree->clear();
    for (const PermissionRule &rule : rules) {
        auto *item = new QTreeWidgetItem(m_configRulesTree, {rule.permission, rule.pattern, QString()});
        item->setData(2, Qt::UserRole, int(rule.action));
    }
}

QWidget *PermissionsPage::createApprovalsBox()
{
    auto *box = new QGroupBox(this);
    m_approvalsBox = box;
    m_approvalTree = new QTreeWidget(box);
    m_approvalTree->setObjectName(u"approvalsTree"_s);
    m_approvalTree->setColumnCount(2);
    m_approvalTree->setRootIsDecorated(false);
    m_approvalTree->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_approvalTree->header()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
    m_delete = new QPushButton(box);
    m_delete->setObjectName(u"deleteApprovalButton"_s);
    m_delete->setEnabled(false);
    m_delete->setShortcut(QKeySequence::Delete);
    m_approvalsMessage = new InlineMessage(box);
    m_approvalsMessage->setObjectName(u"approvalsMessage"_s);

    auto *row = new QHBoxLayout;
    row->addWidget(m_approvalsMessage, 1);
    row->addWidget(m_delete, 0, Qt::AlignTop);
    auto *layout = new QVBoxLayout(box);
    layout->addWidget(m_approvalTree);
    layout->addLayout(row);

    connect(m_approvalTree, &QTreeWidget::itemSelectionChanged, this,
            [this] { m_delete->setEnabled(!m_approvalTree->selectedItems().isEmpty()); });
    connect(m_delete, &QPushButton::clicked, this, &PermissionsPage::deleteSelectedApprovals);
    return box;
}

void PermissionsPage::loadApprovals()
{
    if (m_projectID.isEmpty() || !m_store) {
        m_approvalTree->setEnabled(false);
        showApprovalsNote();
        return;
    }
    const Result<std::optional<QJsonArray>> saved = m_store->permission(m_projectID);
    if (!saved) {
        m_approvalsMessage->showError(saved.errorMessage());
        return;
    }
    PermissionRuleset rules = *saved ? rulesetFromJson(**saved) : PermissionRuleset();
    // Only allow rules are approvals; the engine applies nothing else from there.
    rules.removeIf([](const PermissionRule &rule) { return rule.action != PermissionAction::Allow; });
    showApprovals(rules);
}

void PermissionsPage::showApprovals(const PermissionRuleset &rules)
{
    m_approvals = rules;
    m_approvalTree->clear();
    for (qsizetype i = 0; i < rules.size(); ++i) {
        auto *item = new QTreeWidgetItem(m_approvalTree, {rules.at(i).permission, rules.at(i).pattern});
        item->setData(0, Qt::UserRole, int(i));
    }
    m_delete->setEnabled(false);
    showApprovalsNote();
}

void PermissionsPage::showApprovalsNote()
{
    if (m_projectID.isEmpty() || !m_store)
        m_approvalsMessage->showInfo(tr("Open a project to see the answers saved for it."));
    else if (m_approvals.isEmpty())
        m_approvalsMessage->showInfo(tr("No saved answers: qcode asks whenever the rules say so."));
    else
        m_approvalsMessage->dismiss();
}

void PermissionsPage::deleteSelectedApprovals()
{
    QList<int> chosen;
    for (const QTreeWidgetItem *item : m_approvalTree->selectedItems())
        chosen.append(item->data(0, Qt::UserRole).toInt());
    if (chosen.isEmpty())
        return;
    if (!m_engine) {
        m_approvalsMessage->showError(tr("qcode's engine is not running, so saved answers cannot be changed now."));
        return;
    }
    PermissionRuleset remaining;
    for (qsizetype i = 0; i < m_approvals.size(); ++i) {
        if (!chosen.contains(int(i)))
            remaining.append(m_approvals.at(i));
    }
    qCInfo(lcSettings) << "taking back" << chosen.size() << "saved approvals of project" << m_projectID;
    m_delete->setEnabled(false);
    m_removing = true;
    m_approvalsMessage->showInfo(tr("Removing…"));
    // A queued call: the engine saves them on its thread and answers with
    // projectApprovalsChanged.
    m_engine->setProjectApprovals(m_projectID, remaining);
}

} // namespace qcode
