#pragma once

#include <QList>
#include <QString>

namespace qcode::test {

// Finds string literals handed straight to what a person reads: the text
// setters of widgets and actions (setText, setWindowTitle, setToolTip …),
// the constructors that take a label (QLabel, QPushButton, QAction …) and
// QMessageBox's dialogs. A literal counts when it is an argument itself,
// inside a QStringLiteral/QLatin1String wrapper, or one operand of a
// concatenation or a ?: — not when it sits inside tr(), translate() or
// QT_TR_NOOP(), nor inside some other call (`.arg(u"x"_s)`). An empty
// literal shows nothing and is not reported.
//
// A literal that is deliberately not translated (a language's own name, a
// format like "%1 (%2)", a technical token) is accepted with a comment on
// its line, or on the line naming the call: `// i18n: <why>`.
//
// It reads the text as C++ tokens (comments, raw strings and digit
// separators understood), without a compiler: a call through a variable
// holding a function, or a literal hidden behind a macro, is not seen.
class LiteralScanner
{
public:
    struct Finding {
        QString file;
        int line = 0;
        QString call;    // setText, QLabel, QMessageBox::warning …
        QString literal; // as written, prefix and suffix included

        QString toString() const;
    };

    // The findings in one file's text; `file` only names them.
    static QList<Finding> scan(const QString &text, const QString &file = {});
    // The findings in every .cpp and .h under `root`, paths relative to it.
    static QList<Finding> scanTree(const QString &root);
};

} // namespace qcode::test
