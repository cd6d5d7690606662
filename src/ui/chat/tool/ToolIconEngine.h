#pragma once

#include <QIcon>
#include <QIconEngine>
#include <QString>

namespace qcode {

// The tools' icons, drawn with QPainter at whatever size and pixel ratio
// they are asked for, so they stay crisp on HiDPI screens, in the palette's
// text colour at paint time, so they follow the theme. Names are the
// tools' own (bash, read, write, edit, apply_patch, glob, grep, list,
// webfetch, task, todowrite, todoread, question, invalid) or "generic".
class ToolIconEngine : public QIconEngine
{
public:
    explicit ToolIconEngine(QString name);

    static QIcon icon(const QString &name);

    void paint(QPainter *painter, const QRect &rect, QIcon::Mode mode, QIcon::State state) override;
    QPixmap pixmap(const QSize &size, QIcon::Mode mode, QIcon::State state) override;
    QPixmap scaledPixmap(const QSize &size, QIcon::Mode mode, QIcon::State state, qreal scale) override;
    QIconEngine *clone() const override;
    QString key() const override;
    QString iconName() override;

private:
    QString m_name;
};

} // namespace qcode
