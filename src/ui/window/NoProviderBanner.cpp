#include "NoProviderBanner.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>

#include "engine/session/project/ProjectSummary.h"

using namespace Qt::StringLiterals;

namespace qcode {

NoProviderBanner::NoProviderBanner(QWidget *parent) : Banner(u"noProviderBanner"_s, QPalette::ToolTipBase, parent)
{
    m_connect = new QPushButton(this);
    m_connect->setObjectName(u"connectProviderButton"_s);
    connect(m_connect, &QPushButton::clicked, this, &NoProviderBanner::connectRequested);
    row()->addWidget(m_connect);
    retranslateUi();
    hide();
}

void NoProviderBanner::setProject(const ProjectSummary &project)
{
    // A broken config hides the providers it names; its own banner says so.
    setVisible(!project.directory.isEmpty() && project.models.isEmpty() && project.configErrors.isEmpty());
}

QString NoProviderBanner::sendingNotice()
{
    return tr("No model can answer yet, so nothing was sent. Connect a provider (or start a local model server), "
              "then send again: your prompt is still here.");
}

void NoProviderBanner::retranslateUi()
{
    label()->setText(tr("No provider is connected yet. Add an API key or use a model server running on this "
                        "computer, and qcode can start answering."));
    m_connect->setText(tr("Connect a provider…"));
    m_connect->setToolTip(tr("Open Settings at the Providers page"));
}

} // namespace qcode
