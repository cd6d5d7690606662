#pragma once

#include <QTimer>

#include "ui/chat/PartWidget.h"

class QLabel;
class QToolButton;

namespace qcode {

// The model's reasoning: collapsed to one line — "Thinking…" while it
// streams, "Thought for 4.2 s" after — and shown in full on request.
class ReasoningWidget : public PartWidget
{
    Q_OBJECT

public:
    explicit ReasoningWidget(QWidget *parent = nullptr);

    void setPart(const Part &part, const Message &message) override;
    void appendDelta(const Part &part, const Message &message, const QString &field, const QString &delta) override;
    QString markdown() const override;

    bool isExpanded() const;
    void setExpanded(bool expanded);
    QString headerText() const;

protected:
    void changeEvent(QEvent *event) override;

private:
    void renderHeader();
    void renderBody();
    void applyColours();

    QString m_text;
    qint64 m_start = 0;
    std::optional<qint64> m_end;
    QToolButton *m_header = nullptr;
    QLabel *m_body = nullptr;
    // Streamed text reaches an open body at most this often, so a long
    // chain of thought is not laid out again for every token.
    QTimer m_bodyUpdate;
};

} // namespace qcode
