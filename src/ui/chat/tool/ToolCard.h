#pragma once

#include <QFrame>

#include <array>

#include "ToolBody.h"
#include "ToolCardContext.h"
#include "ToolPresentation.h"
#include "ToolStatus.h"
#include "model/Part.h"

class QLabel;
class QVBoxLayout;

namespace qcode {

class DiffView;
class OutputView;
class ToolCardHeader;

// One tool call in the chat: a header (icon, title, status) and details
// that expand below it: the command, the diff, the checklist, the output,
// the error. setPart() is called with the call's newest state on every
// update; it changes only what changed, creates each child widget once,
// and appends a running command's output rather than re-laying it.
//
// Collapsed at first, except a command (its output's tail is the point),
// a failure (its error is) and a small finished edit (its diff is); once
// the person expands or collapses a card it stays so.
//
// Children tests may look up: "toolHeader", "toolSpinner", "toolStatus",
// "toolOpenSession", "toolInput" and "toolOutput" (OutputView),
// "toolDiff" (DiffView), "toolShowChanges", "toolTodos", "toolDetails",
// "toolNotes", "toolError", and while the call waits for the person
// "permissionAsk" (PermissionAskPanel) or "questionAsk" (QuestionAskPanel).
//
// A call's permission ask or question is answered here, in its card, which
// reads "Waiting for you" meanwhile; its time leaves the wait out.
class ToolCard : public QFrame
{
    Q_OBJECT

public:
    static constexpr int DetailSlots = 7;
    // A finished edit whose diff has at most this many rows starts expanded.
    static constexpr int SmallDiffRows = 16;

    explicit ToolCard(ToolCardContext context, QWidget *parent = nullptr);
    ~ToolCard() override;

    void setPart(const Part &part);
    QString title() const { return m_presentation.title; }
    QString subtitle() const { return m_presentation.subtitle; }
    QString statusText() const { return m_status.text; }
    ToolStatus::Kind statusKind() const { return m_status.kind; }
    bool isExpanded() const { return m_expanded; }
    // The panel of the ask the call waits on, or null.
    QWidget *askPanel() const { return m_askPanel; }
    void setExpanded(bool expanded);

    bool hasHeightForWidth() const override;
    int heightForWidth(int width) const override;

Q_SIGNALS:
    void openSessionRequested(const QString &sessionID);
    void heightChanged();

protected:
    bool event(QEvent *event) override;
    void paintEvent(QPaintEvent *event) override;
    void changeEvent(QEvent *event) override;

private:
    qint64 now() const;
    // Title, details and status from m_part, in the language in use.
    void present();
    void refreshStatus();
    void applyBody();
    void applyDiff();
    bool isSmallFinishedEdit() const;
    QString changedFile() const;
    void applyTodos();
    void applyError();
    void applyExpansion();
    void applyAsk();
    void restyle();
    void checkHeight();
    OutputView *ensureOutputView(OutputView *&view, const QString &name);
    QLabel *ensureLabel(QLabel *&label, const QString &name);

    ToolCardContext m_context;
    QString m_partID;
    QString m_messageID; // with the call's id, names its ask
    ToolPart m_part;
    ToolPresentation m_presentation;
    ToolBody m_body;
    ToolStatus m_status;
    bool m_expanded = false;
    bool m_chosenByPerson = false;
    int m_lastHeight = -1;

    QVBoxLayout *m_layout = nullptr;
    ToolCardHeader *m_header = nullptr;
    QWidget *m_details = nullptr;
    QVBoxLayout *m_detailsLayout = nullptr;
    std::array<QWidget *, DetailSlots> m_slots{}; // the details in their order, once made
    OutputView *m_input = nullptr;
    QWidget *m_diffSection = nullptr;
    QLabel *m_diffCaption = nullptr;
    DiffView *m_diff = nullptr;
    QLabel *m_showChanges = nullptr;
    QLabel *m_todos = nullptr;
    QLabel *m_detailsText = nullptr;
    OutputView *m_output = nullptr;
    QLabel *m_notes = nullptr;
    QLabel *m_error = nullptr;
    QString m_askID; // the ask m_askPanel answers
    QWidget *m_askPanel = nullptr;
};

} // namespace qcode
