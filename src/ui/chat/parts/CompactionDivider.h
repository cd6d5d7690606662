#pragma once

#include "ui/chat/PartWidget.h"

class QFrame;
class QLabel;

namespace qcode {

// Where the conversation was summarised: a rule across the chat with the
// words in the middle, so the person sees that what came before it is no
// longer what the model reads (the summary follows, folded).
class CompactionDivider : public PartWidget
{
    Q_OBJECT

public:
    explicit CompactionDivider(QWidget *parent = nullptr);

    void setPart(const Part &part, const Message &message) override;
    QString markdown() const override;
    QString text() const;

protected:
    void changeEvent(QEvent *event) override;

private:
    void retranslateUi();
    void applyColours();

    bool m_automatic = false;
    QLabel *m_label = nullptr;
    QFrame *m_before = nullptr;
    QFrame *m_after = nullptr;
};

} // namespace qcode
