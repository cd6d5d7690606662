#pragma once

#include <QDialog>
#include <QList>

#include "SettingsContext.h"

class QLabel;
class QListWidget;
class QNetworkAccessManager;
class QStackedWidget;

namespace qcode {

class DataPage;
class GeneralPage;
class PermissionsPage;
class ProvidersPage;

// The settings window: a list of pages on the left, the page on the
// right. Opened with show() or open(), never exec(); every change is
// saved as it is made, so closing it loses nothing.
class SettingsDialog : public QDialog
{
    Q_OBJECT

public:
    explicit SettingsDialog(SettingsContext context, QWidget *parent = nullptr);
    ~SettingsDialog() override;

    // "providers", "general", "permissions" or "data"; an unknown name
    // leaves the page as it is.
    void showPage(const QString &name);
    QString currentPage() const;

    // For the connection test; owned by the dialog.
    QNetworkAccessManager *network() const { return m_network; }

protected:
    void changeEvent(QEvent *event) override;

private:
    void addPage(const QString &name, QWidget *page);
    void retranslateUi();
    void updateModelEntries();

    SettingsContext m_context;
    QNetworkAccessManager *m_network = nullptr;
    QList<LocalServer> m_localServers;
    QListWidget *m_list = nullptr;
    QStackedWidget *m_pages = nullptr;
    QLabel *m_configNote = nullptr;
    ProvidersPage *m_providers = nullptr;
    GeneralPage *m_general = nullptr;
    PermissionsPage *m_permissions = nullptr;
    DataPage *m_data = nullptr;
};

} // namespace qcode
