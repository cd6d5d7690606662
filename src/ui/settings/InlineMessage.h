#pragma once

#include <QLabel>

namespace qcode {

// A sentence under a form that says what just happened: saved, failed
// and why, still working. Errors stay until the next message, and can be
// selected and copied.
class InlineMessage : public QLabel
{
    Q_OBJECT

public:
    enum class Kind { None, Info, Success, Error };

    explicit InlineMessage(QWidget *parent = nullptr);

    void showInfo(const QString &text) { say(Kind::Info, text); }
    void showSuccess(const QString &text) { say(Kind::Success, text); }
    void showError(const QString &text) { say(Kind::Error, text); }
    void dismiss() { say(Kind::None, {}); }

    Kind kind() const { return m_kind; }

private:
    void say(Kind kind, const QString &text);

    Kind m_kind = Kind::None;
};

} // namespace qcode
