#pragma once

#include <QPlainTextEdit>
#include <QPointer>

#include <functional>

class QMimeData;

namespace qcode {

// The prompt's text field. Enter asks to send (submitRequested), Shift+Enter
// starts a new line, and the field grows with its text up to a share of the
// window's height, then scrolls.
//
// Input methods come first: while a Chinese, Japanese or Korean input
// method is composing (a preedit is showing), no key is read as a command,
// and the Enter that ends a composition is not read as "send" either, even
// when the platform delivers it as a key press right after the commit.
//
// What the owner decides is handed in as callbacks: keys it wants first
// (popups, history, agent cycling) and files or images offered by a drop or
// a paste.
class PromptEditor : public QPlainTextEdit
{
    Q_OBJECT

public:
    // True: the owner handled the key.
    using KeyInterceptor = std::function<bool(QKeyEvent *event)>;
    // True: the owner took the data as attachments; else it is text.
    using MimeHandler = std::function<bool(const QMimeData *mime, bool dropped)>;

    explicit PromptEditor(QWidget *parent = nullptr);
    ~PromptEditor() override;

    bool isComposing() const { return !m_preedit.isEmpty(); }
    // Whether an Enter now would be the one that ended a composition.
    bool isGuardingCommitEnter() const { return m_guardCommitEnter; }

    void setKeyInterceptor(KeyInterceptor interceptor) { m_interceptor = std::move(interceptor); }
    void setMimeHandler(MimeHandler handler) { m_mimeHandler = std::move(handler); }
    // Escape goes to the field even when a window shortcut wants it (while
    // busy, Escape stops; with a popup open, it closes it).
    void setClaimsEscape(bool claims) { m_claimsEscape = claims; }
    void setMaximumHeightShare(double share);
    void setMinimumLines(int lines);

    bool isCursorOnFirstLine() const;
    bool isCursorOnLastLine() const;

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

Q_SIGNALS:
    void submitRequested();

protected:
    bool event(QEvent *event) override;
    bool eventFilter(QObject *watched, QEvent *event) override;
    void keyPressEvent(QKeyEvent *event) override;
    void inputMethodEvent(QInputMethodEvent *event) override;
    bool canInsertFromMimeData(const QMimeData *source) const override;
    void insertFromMimeData(const QMimeData *source) override;
    void dragEnterEvent(QDragEnterEvent *event) override;
    void dragMoveEvent(QDragMoveEvent *event) override;
    void dropEvent(QDropEvent *event) override;
    void showEvent(QShowEvent *event) override;

private:
    static bool isEnter(const QKeyEvent *event);
    bool offersAttachments(const QMimeData *mime) const;
    int heightForLines(qreal lines) const;
    void updateHeight();
    void watchWindow();

    KeyInterceptor m_interceptor;
    MimeHandler m_mimeHandler;
    QString m_preedit;
    bool m_guardCommitEnter = false;
    bool m_claimsEscape = false;
    double m_maximumShare = 0.4;
    int m_minimumLines = 1;
    QPointer<QWidget> m_watchedWindow;
};

} // namespace qcode
