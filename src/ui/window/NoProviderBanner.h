#pragma once

#include "Banner.h"

class QPushButton;

namespace qcode {

struct ProjectSummary;

// Said at once when the open project has no model to answer with: no
// provider has a key, none is configured and no local server answered.
// Its button opens Settings at the Providers page, where keys are entered
// and the model servers found on this computer are offered.
class NoProviderBanner : public Banner
{
    Q_OBJECT

public:
    explicit NoProviderBanner(QWidget *parent = nullptr);

    // Shown while `project` (as the engine described it) offers no model.
    void setProject(const ProjectSummary &project);
    // What the prompt box says when a prompt is sent with no model.
    static QString sendingNotice();

Q_SIGNALS:
    void connectRequested();

private:
    void retranslateUi() override;

    QPushButton *m_connect = nullptr;
};

} // namespace qcode
