#pragma once

#include "ui/chat/PartWidget.h"

class QLabel;

namespace qcode {

// A quiet line in the conversation for parts that are facts rather than
// words: the files a step changed, a compaction, a retried call, a subtask,
// an agent mention, a part from a newer version.
class NoteWidget : public PartWidget
{
    Q_OBJECT

public:
    explicit NoteWidget(QWidget *parent = nullptr);

    void setPart(const Part &part, const Message &message) override;
    QString markdown() const override;
    QString text() const;

    // The words shown for a part (empty when the part says nothing).
    static QString describe(const Part &part);

protected:
    void changeEvent(QEvent *event) override;

private:
    void applyColours();

    Part m_part; // its words are rendered again in another language
    QLabel *m_label = nullptr;
};

} // namespace qcode
