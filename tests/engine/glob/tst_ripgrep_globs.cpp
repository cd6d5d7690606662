#include <QTest>

#include "engine/glob/RipgrepGlobs.h"

using namespace Qt::StringLiterals;
using namespace qcode;

namespace {

bool keeps(const QString &glob, const QString &relativePath)
{
    return RipgrepGlobs({glob}).keepsFile(relativePath);
}

} // namespace

// ripgrep's --glob, as the in-process search applies it.
class TestRipgrepGlobs : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void globMatchesAsRipgrepDoes()
    {
        QVERIFY(keeps(u"*.ts"_s, u"a.ts"_s));
        QVERIFY(keeps(u"*.ts"_s, u"src/deep/a.ts"_s));
        QVERIFY(keeps(u"src/*.ts"_s, u"src/a.ts"_s));
        QVERIFY(!keeps(u"src/*.ts"_s, u"src/deep/a.ts"_s));
        QVERIFY(!keeps(u"src/*.ts"_s, u"lib/src/a.ts"_s));
        QVERIFY(keeps(u"src/**/*.ts"_s, u"src/a.ts"_s));
        QVERIFY(keeps(u"src/**/*.ts"_s, u"src/deep/er/a.ts"_s));
        QVERIFY(keeps(u"**/*.ts"_s, u"a.ts"_s));
        QVERIFY(keeps(u"/src/*.ts"_s, u"src/a.ts"_s));
        QVERIFY(keeps(u"*.{h,cpp}"_s, u"x/a.cpp"_s));
        QVERIFY(keeps(u"*.{h,cpp}"_s, u"a.h"_s));
        QVERIFY(!keeps(u"*.{h,cpp}"_s, u"a.hpp"_s));
        QVERIFY(keeps(u"file?.[ch]"_s, u"file1.c"_s));
        QVERIFY(!keeps(u"file?.[!ch]"_s, u"file1.c"_s));
        QVERIFY(keeps(u"*"_s, u".env"_s));
        QVERIFY(!keeps(u"!*.md"_s, u"a.md"_s));
        QVERIFY(keeps(u"!*.md"_s, u"a.txt"_s));
        QVERIFY(keeps(u"a+b(c).txt"_s, u"a+b(c).txt"_s));
    }

    void severalGlobsCombineAsRipgrepCombinesThem()
    {
        const RipgrepGlobs globs({u"*.cpp"_s, u"*.h"_s, u"!build/"_s});
        QVERIFY(globs.keepsFile(u"src/a.cpp"_s));
        QVERIFY(globs.keepsFile(u"a.h"_s));
        QVERIFY(!globs.keepsFile(u"a.txt"_s));
        QVERIFY(!globs.keepsFile(u"build"_s));
        QCOMPARE(globs.verdict(u"build"_s, true), RipgrepGlobs::Verdict::Drop);
        QCOMPARE(globs.verdict(u"src"_s, true), RipgrepGlobs::Verdict::AskIgnoreFiles);
        QCOMPARE(globs.verdict(u"src/a.cpp"_s, false), RipgrepGlobs::Verdict::Keep);
        QCOMPARE(globs.verdict(u"src/a.txt"_s, false), RipgrepGlobs::Verdict::Drop);
        QCOMPARE(RipgrepGlobs({}).verdict(u"a.txt"_s, false), RipgrepGlobs::Verdict::AskIgnoreFiles);
    }
};

QTEST_GUILESS_MAIN(TestRipgrepGlobs)
#include "tst_ripgrep_globs.moc"
