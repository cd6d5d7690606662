#pragma once

#include <QFrame>
#include <QUrl>

#include <functional>

#include "engine/config/ConfigError.h"

class QLabel;
class QPushButton;

namespace qcode {

// Shown while the open project's configuration is broken: each error as
// "file:line:column: what is wrong", that no prompt runs until it is fixed,
// "Open file" for the first error's file and "Reload" to read it again.
class ConfigErrorBanner : public QFrame
{
    Q_OBJECT

public:
    explicit ConfigErrorBanner(QWidget *parent = nullptr);

    // Empty hides the banner.
    void setErrors(const ConfigErrors &errors);
    const ConfigErrors &errors() const { return m_errors; }
    QString text() const;

    // How "Open file" opens a file (QDesktopServices::openUrl unless
    // replaced, as tests do so that nothing is launched).
    void setFileOpener(std::function<void(const QUrl &)> opener);
    QPushButton *openButton() const { return m_open; }
    QPushButton *reloadButton() const { return m_reload; }

Q_SIGNALS:
    void reloadRequested();

protected:
    void changeEvent(QEvent *event) override;

private:
    void openFile();
    void retranslateUi();

    ConfigErrors m_errors;
    std::function<void(const QUrl &)> m_opener;
    QLabel *m_label = nullptr;
    QPushButton *m_open = nullptr;
    QPushButton *m_reload = nullptr;
};

} // namespace qcode
