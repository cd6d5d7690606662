#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QTest>

#include "TempTree.h"
#include "engine/tool/LinkSafeFiles.h"

using namespace Qt::StringLiterals;
using namespace qcode;

namespace {

QByteArray contents(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray("<missing>");
}

bool isEmptyFolder(const QString &path)
{
    return QDir(path).isEmpty(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden | QDir::System);
}

} // namespace

class LinkSafeFilesTest : public QObject
{
    Q_OBJECT

private:
    test::TempTree m_tree;

    // The tree's own folder may lie below a link (/tmp on some systems):
    // every expectation is made from its real path.
    QString real(const QString &relative) const
    {
        return QDir(QFileInfo(m_tree.root()).canonicalFilePath()).filePath(relative);
    }

    QString resolved(const QString &relative) const
    {
        const Result<QString> path = LinkSafeFiles::realPath(m_tree.path(relative));
        return path ? *path : u"<error: "_s + path.errorMessage() + u'>';
    }

private Q_SLOTS:
    void init()
    {
        QVERIFY(m_tree.reset());
        QVERIFY(QDir().mkpath(m_tree.path(u"project"_s)));
        QVERIFY(QDir().mkpath(m_tree.path(u"outside"_s)));
    }

    void aPathWithoutLinksIsItself()
    {
        QVERIFY(m_tree.write(u"project/a.txt"_s, "a"));
        QCOMPARE(resolved(u"project/a.txt"_s), real(u"project/a.txt"_s));
        QCOMPARE(resolved(u"project/missing/new.txt"_s), real(u"project/missing/new.txt"_s));
    }

    void aDanglingFinalLinkLeadsToItsTarget()
    {
        QVERIFY(QFile::link(m_tree.path(u"outside/new.txt"_s), m_tree.path(u"project/new.txt"_s)));
        QCOMPARE(resolved(u"project/new.txt"_s), real(u"outside/new.txt"_s));
    }

    void aRelativeTargetWithDotDotIsTakenFromTheLinksFolder()
    {
        // project/sub -> ../outside; project/l -> sub/../x: ".." after the
        // link sub goes up from outside, not from project.
        QVERIFY(QFile::link(u"../outside"_s, m_tree.path(u"project/sub"_s)));
        QVERIFY(QFile::link(u"sub/../x"_s, m_tree.path(u"project/l"_s)));
        QCOMPARE(resolved(u"project/l"_s), real(u"x"_s));
    }

    void aDanglingFolderLinkOnTheWayIsFollowed()
    {
        QVERIFY(QFile::link(m_tree.path(u"outside/not/yet"_s), m_tree.path(u"project/sub"_s)));
        QCOMPARE(resolved(u"project/sub/a/b.txt"_s), real(u"outside/not/yet/a/b.txt"_s));
    }

    void aLoopOfLinksIsAnError()
    {
        QVERIFY(QFile::link(u"b"_s, m_tree.path(u"project/a"_s)));
        QVERIFY(QFile::link(u"a"_s, m_tree.path(u"project/b"_s)));
        const Result<QString> path = LinkSafeFiles::realPath(m_tree.path(u"project/a/file.txt"_s));
        QVERIFY(!path);
        QVERIFY2(path.errorMessage().contains(u"too many levels of symbolic links"_s), qPrintable(path.errorMessage()));
    }

    void writesANewFileAndItsFolders()
    {
        const QString target = real(u"project/a/b/new.txt"_s);
        QVERIFY2(LinkSafeFiles::write(target, "hello\n"), "write failed");
        QCOMPARE(contents(target), QByteArray("hello\n"));
        // No temporary file is left beside it.
        QCOMPARE(QDir(real(u"project/a/b"_s)).entryList(QDir::Files | QDir::Hidden), QStringList{u"new.txt"_s});
    }

    void anExistingFileKeepsItsPermissions()
    {
        QVERIFY(m_tree.write(u"project/run.sh"_s, "echo a\n"));
        const QString target = real(u"project/run.sh"_s);
        const QFileDevice::Permissions permissions =
            QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner | QFileDevice::ReadGroup;
        QVERIFY(QFile::setPermissions(target, permissions));
        QVERIFY(LinkSafeFiles::write(target, "echo b\n"));
        QCOMPARE(contents(target), QByteArray("echo b\n"));
        QCOMPARE(QFile::permissions(target) & ~(QFileDevice::ReadUser | QFileDevice::WriteUser | QFileDevice::ExeUser),
                 permissions);
    }

    void aFinalLinkThatAppearedAfterTheCheckIsNotWrittenThrough()
    {
        const QString target = real(u"project/new.txt"_s);
        // The path was resolved (no link), then a link took the name.
        QVERIFY(QFile::link(real(u"outside/new.txt"_s), target));
        const Result<void> written = LinkSafeFiles::write(target, "x");
        QVERIFY(!written);
        QVERIFY2(written.errorMessage().contains(u"is a symbolic link now"_s), qPrintable(written.errorMessage()));
        QVERIFY(isEmptyFolder(real(u"outside"_s)));
        QVERIFY(QFileInfo(target).isSymLink());
        QCOMPARE(QDir(real(u"project"_s)).entryList(QDir::Files | QDir::Hidden | QDir::System), QStringList{u"new.txt"_s});
    }

    void aLinkToAnExistingFileThatAppearedAfterTheCheckIsNotWrittenThrough()
    {
        QVERIFY(m_tree.write(u"outside/secret.txt"_s, "secret\n"));
        const QString target = real(u"project/a.txt"_s);
        QVERIFY(QFile::link(real(u"outside/secret.txt"_s), target));
        QVERIFY(!LinkSafeFiles::write(target, "x"));
        QCOMPARE(contents(real(u"outside/secret.txt"_s)), QByteArray("secret\n"));
    }

    void aFolderLinkThatAppearedAfterTheCheckIsNotWrittenThrough()
    {
        const QString target = real(u"project/sub/deeper/new.txt"_s);
        QVERIFY(QFile::link(real(u"outside"_s), real(u"project/sub"_s)));
        const Result<void> written = LinkSafeFiles::write(target, "x");
        QVERIFY(!written);
        QVERIFY2(written.errorMessage().contains(real(u"project/sub"_s) + u" is a symbolic link now"_s),
                 qPrintable(written.errorMessage()));
        QVERIFY(isEmptyFolder(real(u"outside"_s)));
    }

    void readingGoesThroughNoLink()
    {
        QVERIFY(m_tree.write(u"project/a.txt"_s, "mine\n"));
        QVERIFY(m_tree.write(u"outside/secret.txt"_s, "secret\n"));
        const Result<QByteArray> own = LinkSafeFiles::read(real(u"project/a.txt"_s));
        QVERIFY(own);
        QCOMPARE(*own, QByteArray("mine\n"));
        // The checked path became a link, to a file or through a folder.
        QVERIFY(QFile::link(real(u"outside/secret.txt"_s), real(u"project/b.txt"_s)));
        const Result<QByteArray> throughFile = LinkSafeFiles::read(real(u"project/b.txt"_s));
        QVERIFY(!throughFile);
        QVERIFY2(throughFile.errorMessage().contains(u"is a symbolic link now"_s),
                 qPrintable(throughFile.errorMessage()));
        QVERIFY(QFile::link(real(u"outside"_s), real(u"project/sub"_s)));
        QVERIFY(!LinkSafeFiles::read(real(u"project/sub/secret.txt"_s)));
    }

    void removingALinkRemovesTheLinkNotItsTarget()
    {
        QVERIFY(m_tree.write(u"project/real.txt"_s, "a"));
        QVERIFY(QFile::link(u"real.txt"_s, real(u"project/alias.txt"_s)));
        QVERIFY(LinkSafeFiles::remove(real(u"project/alias.txt"_s)));
        QVERIFY(!QFileInfo(real(u"project/alias.txt"_s)).isSymLink());
        QCOMPARE(contents(real(u"project/real.txt"_s)), QByteArray("a"));
    }

    void removingBelowAFolderLinkIsRefused()
    {
        QVERIFY(m_tree.write(u"outside/keep.txt"_s, "keep"));
        QVERIFY(QFile::link(real(u"outside"_s), real(u"project/sub"_s)));
        QVERIFY(!LinkSafeFiles::remove(real(u"project/sub/keep.txt"_s)));
        QCOMPARE(contents(real(u"outside/keep.txt"_s)), QByteArray("keep"));
    }
};

QTEST_GUILESS_MAIN(LinkSafeFilesTest)
#include "tst_link_safe_files.moc"
