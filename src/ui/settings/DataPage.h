#pragma once

#include <QWidget>

#include <optional>

#include "SettingsContext.h"

class QFormLayout;
class QGroupBox;
class QLabel;
class QPushButton;

namespace qcode {

class InlineMessage;

// Settings › Data: where qcode keeps its database, saved tool output and
// snapshots; opening that folder, and choosing another one for the next
// start.
class DataPage : public QWidget
{
    Q_OBJECT

public:
    DataPage(const SettingsContext &context, QWidget *parent = nullptr);

    QString currentDirectory() const { return m_current; }
    // What the next start will use.
    void chooseDirectory(const QString &directory);

    // The bytes below `directory`, files only; for a worker thread.
    static qint64 folderSize(const QString &directory);

protected:
    void changeEvent(QEvent *event) override;

private:
    void retranslateUi();
    void showSnapshotSize();
    void openFolder();
    void pickFolder();
    void showPending();
    void measureSnapshots();

    AppSettings *m_app = nullptr;
    QString m_current;
    bool m_overriddenByEnvironment = false;

    std::optional<qint64> m_snapshotBytes; // once measured

    QGroupBox *m_box = nullptr;
    QFormLayout *m_form = nullptr;
    QLabel *m_location = nullptr;
    QLabel *m_database = nullptr;
    QLabel *m_toolOutput = nullptr;
    QLabel *m_snapshotSize = nullptr;
    QPushButton *m_open = nullptr;
    QPushButton *m_change = nullptr;
    QPushButton *m_reset = nullptr;
    InlineMessage *m_message = nullptr;
};

} // namespace qcode
