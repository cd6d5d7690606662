#pragma once

#include "Banner.h"
#include <QUrl>

#include <functional>

#include "engine/config/ConfigError.h"

class QPushButton;

namespace qcode {

// Shown while the open project's configuration is broken: each error as
// "file:line:column: what is wrong", that no prompt runs until it is fixed,
// "Open file" for the first error's file and "Reload" to read it again.
class ConfigErrorBanner : public Banner
{
    Q_OBJECT

public:
    explicit ConfigErrorBanner(QWidget *parent = nullptr);

    // Empty hides the banner.
    void setErrors(const ConfigErrors &errors);
    const ConfigErrors &errors() const { return m_errors; }

    // How "Open file" opens a file (QDesktopServices::openUrl unless
    // replaced, as tests do so that nothing is launched).
    void setFileOpener(std::function<void(const QUrl &)> opener);
    QPushButton *openButton() const { return m_open; }
    QPushButton *reloadButton() const { return m_reload; }

Q_SIGNALS:
    void reloadRequested();

private:
    void openFile();
    void retranslateUi() override;

    ConfigErrors m_errors;
    std::function<void(const QUrl &)> m_opener;
    QPushButton *m_open = nullptr;
    QPushButton *m_reload = nullptr;
};

} // namespace qcode
