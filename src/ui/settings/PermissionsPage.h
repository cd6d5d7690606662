#pragma once

#include <QHash>
#include <QWidget>

#include "SettingsContext.h"
#include "engine/agent/PermissionRule.h"
#include "engine/config/UserConfigWriter.h"

class QComboBox;
class QGroupBox;
class QLabel;
class QPushButton;
class QTreeWidget;

namespace qcode {

class InlineMessage;

// Settings › Permissions: what each kind of tool may do without asking
// (qcode.json `permission`), and the "always" answers saved for the open
// project, which can be taken back.
class PermissionsPage : public QWidget
{
    Q_OBJECT

public:
    PermissionsPage(const SettingsContext &context, QWidget *parent = nullptr);

    // The permission keys the page offers, in the order it lists them.
    static QStringList permissionKeys();

    const PermissionRuleset &approvals() const { return m_approvals; }

protected:
    void changeEvent(QEvent *event) override;

private:
    void retranslateUi();
    QWidget *createDefaultsBox();
    QWidget *createConfigRulesBox();
    void showConfigRules(const PermissionRuleset &rules);
    static QString actionWord(PermissionAction action);
    QWidget *createApprovalsBox();
    void loadDefaults();
    void saveDefault(const QString &key, QComboBox *combo);
    void loadApprovals();
    void showApprovals(const PermissionRuleset &rules);
    // Says whether there is a project, or saved answers, to list.
    void showApprovalsNote();
    void deleteSelectedApprovals();

    UserConfigWriter m_writer;
    Engine *m_engine = nullptr;
    Store *m_store = nullptr;
    QString m_projectID;
    PermissionRuleset m_approvals;
    QHash<QString, QComboBox *> m_combos;
    QHash<QString, QLabel *> m_labels;
    QHash<QString, int> m_customPatterns; // per key, the hand-written patterns qcode.json holds
    QHash<QString, int> m_savedIndex; // per key, the entry qcode.json holds
    bool m_removing = false;          // a deletion waits for the engine's answer

    QGroupBox *m_defaultsBox = nullptr;
    QGroupBox *m_configRulesBox = nullptr;
    QTreeWidget *m_configRulesTree = nullptr;
    QLabel *m_configRulesNote = nullptr;
    QGroupBox *m_approvalsBox = nullptr;
    InlineMessage *m_defaultsMessage = nullptr;
    QTreeWidget *m_approvalTree = nullptr;
    QPushButton *m_delete = nullptr;
    InlineMessage *m_approvalsMessage = nullptr;
};

} // namespace qcode
