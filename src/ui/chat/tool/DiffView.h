#pragma once

#include <QPlainTextEdit>
#include <QTimer>

#include "DiffParser.h"

class QPushButton;
class QToolButton;

namespace qcode {

class DiffGutter;
class DiffSidePane;

// A unified diff, coloured: added and removed lines on tinted
// backgrounds (block formats), the changed part of an edited line on a
// stronger tint (character formats), line numbers in a gutter, and a
// side-by-side view on request (its own "Side by side" button, at the top
// right corner, or setSplitView()). Read-only, selectable, copyable.
//
// A diff larger than HugeLines lines or HugeCharacters characters first
// shows only its summary ("+A −D in N files") and a button to show it
// anyway; the rows are then laid in RowsPerChunk at a time from the event
// loop, so even a very large diff never freezes the window.
class DiffView : public QPlainTextEdit
{
    Q_OBJECT

public:
    static constexpr int HugeLines = 5000;
    static constexpr qsizetype HugeCharacters = 1024 * 1024;
    static constexpr int RowsPerChunk = 1000;
    static constexpr int MaxVisibleRows = 30;

    explicit DiffView(QWidget *parent = nullptr);
    ~DiffView() override;

    void setUnifiedDiff(const QString &diff);
    QString unifiedDiff() const { return m_diff; }
    void setSplitView(bool split);
    bool isSplitView() const { return m_split; }
    // File names under it are shown relative to it.
    void setProjectDirectory(const QString &directory);

    bool isShowingSummary() const { return m_summary; }
    // "+A −D in N files".
    QString summaryText() const;
    bool isRendering() const { return m_renderTimer.isActive(); }
    // After the summary only the counts and files are known, not the lines.
    const ParsedDiff &parsedDiff() const { return m_parsed; }
    // The side-by-side view's new (right) side; this view is the old side.
    // nullptr when not split.
    QPlainTextEdit *newSideView() const;

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

public Q_SLOTS:
    void showWholeDiff();

Q_SIGNALS:
    void renderingFinished();

protected:
    void resizeEvent(QResizeEvent *event) override;
    void changeEvent(QEvent *event) override;

private:
    void retranslateUi();
    void startRender();
    void renderChunk();
    void showSummary();
    void clearPanes();
    void layoutPanes();
    DiffSidePane *ensureNewSide();
    int rowCount() const;

    QString m_diff;
    QString m_projectDirectory;
    ParsedDiff m_parsed;
    QList<DiffSplitRow> m_rows; // split view only
    bool m_split = false;
    bool m_summary = false;
    int m_rendered = 0;
    QTimer m_renderTimer;
    DiffGutter *m_gutter = nullptr;
    DiffSidePane *m_newSide = nullptr;
    QPushButton *m_showAll = nullptr;
    QToolButton *m_splitToggle = nullptr;
};

} // namespace qcode
