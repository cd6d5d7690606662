#pragma once

#include <QFrame>
#include <QList>

#include "engine/snapshot/SnapshotStore.h"

class QLabel;
class QListWidget;
class QPushButton;
class QStackedWidget;

namespace qcode {

class DiffView;

// The Changes panel: every file the open session changed, with its added
// and removed line counts; the selected file's diff against how it was
// before the session (unified, coloured, side by side on request); and
// per file "Revert File" and "Open", with "Revert All" for the whole
// session. It shows what it is given (setChanges) and asks for the rest
// by signals; it opens files itself, with the desktop's default handler.
//
// Children tests may look up: "changesList", "changesDiff",
// "changesSummary", "revertFileButton", "openFileButton",
// "revertAllButton", "changesEmpty".
class ChangesPanel : public QFrame
{
    Q_OBJECT

public:
    // Item data roles of the list.
    enum Role { FileRole = Qt::UserRole, AdditionsRole, DeletionsRole, StatusRole };

    explicit ChangesPanel(QWidget *parent = nullptr);

    // The files are relative to the project's git work tree.
    void setWorkTree(const QString &directory);
    const QString &workTree() const { return m_workTree; }
    // The list as it is now; the selected file stays selected while it is
    // listed.
    void setChanges(const QList<SnapshotFilePatch> &changes);
    // Selects `file` (relative to the work tree), now or as soon as it is listed.
    void selectFile(const QString &file);
    QString currentFile() const;
    QStringList files() const;
    DiffView *diffView() const { return m_diff; }
    QString summaryText() const;

Q_SIGNALS:
    void revertFileRequested(const QString &file);
    void revertAllRequested();

protected:
    void changeEvent(QEvent *event) override;

private:
    void retranslateUi();
    void showSelected();
    void openSelected();
    const SnapshotFilePatch *selected() const;

    QString m_workTree;
    QList<SnapshotFilePatch> m_changes;
    QString m_wanted; // asked for before it was listed
    QLabel *m_title = nullptr;
    QLabel *m_summary = nullptr;
    QPushButton *m_revertAll = nullptr;
    QStackedWidget *m_pages = nullptr;
    QLabel *m_empty = nullptr;
    QListWidget *m_list = nullptr;
    QLabel *m_fileTitle = nullptr;
    QPushButton *m_open = nullptr;
    QPushButton *m_revertFile = nullptr;
    QLabel *m_binary = nullptr;
    DiffView *m_diff = nullptr;
};

} // namespace qcode
