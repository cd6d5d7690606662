#include "ConfigErrorBanner.h"

#include <QDesktopServices>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;

namespace qcode {

namespace {

// More would push the conversation away; the rest are in the log.
constexpr qsizetype ShownErrors = 5;

} // namespace

ConfigErrorBanner::ConfigErrorBanner(QWidget *parent)
    : Banner(u"configErrorBanner"_s, QPalette::AlternateBase, parent),
      m_opener([](const QUrl &url) { QDesktopServices::openUrl(url); })
{
    label()->setObjectName(u"configErrorText"_s);
    label()->setTextFormat(Qt::PlainText);
    label()->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto *buttons = new QVBoxLayout;
    m_open = new QPushButton(this);
    m_open->setObjectName(u"openConfigFileButton"_s);
    connect(m_open, &QPushButton::clicked, this, &ConfigErrorBanner::openFile);
    buttons->addWidget(m_open);
    m_reload = new QPushButton(this);
    m_reload->setObjectName(u"reloadConfigButton"_s);
    connect(m_reload, &QPushButton::clicked, this, &ConfigErrorBanner::reloadRequested);
    buttons->addWidget(m_reload);
    buttons->addStretch();
    row()->addLayout(buttons);
    retranslateUi();
    hide();
}

void ConfigErrorBanner::setErrors(const ConfigErrors &errors)
{
    m_errors = errors;
    setVisible(!errors.isEmpty());
    retranslateUi();
}

void ConfigErrorBanner::setFileOpener(std::function<void(const QUrl &)> opener)
{
    m_opener = std::move(opener);
}

void ConfigErrorBanner::openFile()
{
    if (m_errors.isEmpty() || !m_opener)
        return;
    m_opener(QUrl::fromLocalFile(QFileInfo(m_errors.constFirst().file).absoluteFilePath()));
}

void ConfigErrorBanner::retranslateUi()
{
    QStringList lines{tr("No prompt runs in this project until its configuration is fixed:")};
    for (const ConfigError &error : m_errors.first(std::min(m_errors.size(), ShownErrors)))
        lines.append(error.toString());
    if (m_errors.size() > ShownErrors)
        lines.append(tr("… and %n more.", nullptr, int(m_errors.size() - ShownErrors)));
    label()->setText(lines.join(u'\n'));
    m_open->setText(tr("Open file"));
    // The variable OPENCODE_CONFIG_CONTENT is no file to open.
    m_open->setEnabled(!m_errors.isEmpty() && QFileInfo::exists(m_errors.constFirst().file));
    m_open->setToolTip(m_errors.isEmpty() ? QString() : m_errors.constFirst().file);
    m_reload->setText(tr("Reload"));
    m_reload->setToolTip(tr("Read the configuration again"));
}

} // namespace qcode
