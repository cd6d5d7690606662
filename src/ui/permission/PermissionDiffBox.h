#pragma once

#include <QColor>
#include <QList>

#include "DetailBox.h"

namespace qcode {

// A unified diff, read-only, in monospace, each added and removed line on
// a full-width background (Kate's diff widget, reduced to what a
// permission question needs). The colours are the palette's base tinted
// green or red, so they suit a light and a dark theme alike, and follow a
// palette change.
class PermissionDiffBox : public DetailBox
{
    Q_OBJECT

public:
    enum class LineKind { Context, Added, Removed, Hunk, Header };

    explicit PermissionDiffBox(int maximumLines, QWidget *parent = nullptr);

    void setDiff(const QString &diff);

    // What each line of `diff` is: file headers until a hunk starts (again
    // after an "Index:" line, for a patch of several files), then hunk
    // lines by their first character.
    static QList<LineKind> classify(const QString &diff);
    // The background a line of this kind gets under the current palette
    // (invalid: none).
    QColor background(LineKind kind) const;

protected:
    void changeEvent(QEvent *event) override;

private:
    void colourLines();

    QList<LineKind> m_kinds;
};

} // namespace qcode
