#pragma once

#include <QByteArray>
#include <QDir>
#include <QSaveFile>
#include <QString>
#include <QTemporaryDir>
#include <QTest>

// A throw-away project folder for the message suites: files are written
// whole (QSaveFile) under project/, with a sibling outside/ for paths that
// leave the project.
class ProjectFiles
{
public:
    ProjectFiles()
    {
        QDir(m_dir.path()).mkpath(QStringLiteral("project"));
        QDir(m_dir.path()).mkpath(QStringLiteral("outside"));
    }

    QString root() const { return m_dir.filePath(QStringLiteral("project")); }
    QString outside() const { return m_dir.filePath(QStringLiteral("outside")); }
    QString path(const QString &relative) const { return QDir(root()).filePath(relative); }

    // Writes relative (under the project, or an absolute path) and returns
    // its absolute path; fails the test when it cannot.
    QString write(const QString &relative, const QByteArray &bytes) const
    {
        const QString target = QDir(root()).absoluteFilePath(relative);
        QDir().mkpath(QFileInfo(target).absolutePath());
        QSaveFile file(target);
        if (!file.open(QIODevice::WriteOnly) || file.write(bytes) != bytes.size() || !file.commit())
            QTest::qFail(qPrintable(QStringLiteral("cannot write %1").arg(target)), __FILE__, __LINE__);
        return target;
    }

    QString mkdir(const QString &relative) const
    {
        const QString target = QDir(root()).absoluteFilePath(relative);
        QDir().mkpath(target);
        return target;
    }

private:
    QTemporaryDir m_dir;
};

// OpenCode's read test image: a 1×1 red PNG.
inline QByteArray onePixelPng()
{
    return QByteArray::fromBase64(
        "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==");
}
