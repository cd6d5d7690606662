#include <QImage>
#include <QMimeData>
#include <QTest>

#include "TempTree.h"
#include "ui/prompt/AttachmentIntake.h"

using namespace Qt::StringLiterals;
using namespace qcode;
using namespace qcode::test;

using Kind = PromptAttachment::Kind;
using Source = AttachmentIntake::Source;

class AttachmentIntakeTest : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void init();
    void filesFoldersAndImagesBecomeTheirKinds();
    void aRemoteUrlIsRefusedWithASentence();
    void aMissingFileIsRefusedWithASentence();
    void anImageOverTheLimitIsRefusedNamingTheLimit();
    void duplicatesAreSkippedQuietly();
    void imageDataBecomesPngBytes();
    void aPastedWebAddressStaysText();
    void aPastedPictureOfTextStaysText();
    void textAloneOffersNothing();

private:
    TempTree m_tree;
};

void AttachmentIntakeTest::init()
{
    QVERIFY(m_tree.reset());
}

void AttachmentIntakeTest::filesFoldersAndImagesBecomeTheirKinds()
{
    QVERIFY(m_tree.write(u"notes.txt"_s, "hello"));
    QVERIFY(m_tree.write(u"folder/inside.txt"_s, "x"));
    QImage image(4, 4, QImage::Format_RGB32);
    image.fill(Qt::red);
    QVERIFY(image.save(m_tree.path(u"shot.png"_s)));

    QMimeData mime;
    mime.setUrls({QUrl::fromLocalFile(m_tree.path(u"notes.txt"_s)), QUrl::fromLocalFile(m_tree.path(u"folder"_s)),
                  QUrl::fromLocalFile(m_tree.path(u"shot.png"_s))});
    const auto outcome = AttachmentIntake::fromMimeData(&mime, {}, Source::Drop);
    QVERIFY(outcome.problems.isEmpty());
    QCOMPARE(outcome.added.size(), 3);
    QCOMPARE(outcome.added.at(0).kind, Kind::File);
    QCOMPARE(outcome.added.at(0).name, u"notes.txt"_s);
    QCOMPARE(outcome.added.at(0).path, m_tree.path(u"notes.txt"_s));
    QCOMPARE(outcome.added.at(1).kind, Kind::Folder);
    QCOMPARE(outcome.added.at(2).kind, Kind::Image);
    QCOMPARE(outcome.added.at(2).mime, u"image/png"_s);
    QVERIFY(outcome.added.at(2).data.isEmpty());
}

void AttachmentIntakeTest::aRemoteUrlIsRefusedWithASentence()
{
    QMimeData mime;
    mime.setUrls({QUrl(u"https://example.com/a.png"_s)});
    const auto outcome = AttachmentIntake::fromMimeData(&mime, {}, Source::Drop);
    QVERIFY(outcome.offered);
    QVERIFY(outcome.added.isEmpty());
    QCOMPARE(outcome.problems.size(), 1);
    QVERIFY(outcome.problems.at(0).contains(u"https://example.com/a.png"_s));
    QVERIFY(outcome.problems.at(0).contains(u"only local files"_s));
}

void AttachmentIntakeTest::aMissingFileIsRefusedWithASentence()
{
    const auto outcome = AttachmentIntake::fromPath(m_tree.path(u"gone.txt"_s), {});
    QVERIFY(outcome.added.isEmpty());
    QCOMPARE(outcome.problems.size(), 1);
    QVERIFY(outcome.problems.at(0).contains(u"does not exist"_s));
}

void AttachmentIntakeTest::anImageOverTheLimitIsRefusedNamingTheLimit()
{
    QVERIFY(m_tree.write(u"huge.png"_s, QByteArray(AttachmentIntake::MaxImageBytes + 1, 'x')));
    const auto outcome = AttachmentIntake::fromPath(m_tree.path(u"huge.png"_s), {});
    QVERIFY(outcome.added.isEmpty());
    QCOMPARE(outcome.problems.size(), 1);
    QVERIFY(outcome.problems.at(0).contains(u"huge.png"_s));
    QVERIFY(outcome.problems.at(0).contains(u"at most 10 MB"_s));
}

void AttachmentIntakeTest::duplicatesAreSkippedQuietly()
{
    QVERIFY(m_tree.write(u"a.txt"_s, "a"));
    const auto first = AttachmentIntake::fromPath(m_tree.path(u"a.txt"_s), {});
    QCOMPARE(first.added.size(), 1);
    QMimeData mime;
    mime.setUrls({QUrl::fromLocalFile(m_tree.path(u"a.txt"_s)), QUrl::fromLocalFile(m_tree.path(u"a.txt"_s))});
    const auto again = AttachmentIntake::fromMimeData(&mime, first.added, Source::Drop);
    QVERIFY(again.added.isEmpty());
    QVERIFY(again.problems.isEmpty());
}

void AttachmentIntakeTest::imageDataBecomesPngBytes()
{
    QImage image(8, 6, QImage::Format_ARGB32);
    image.fill(Qt::blue);
    QMimeData mime;
    mime.setImageData(image);
    const auto outcome = AttachmentIntake::fromMimeData(&mime, {}, Source::Paste);
    QCOMPARE(outcome.added.size(), 1);
    const PromptAttachment &pasted = outcome.added.at(0);
    QCOMPARE(pasted.kind, Kind::Image);
    QCOMPARE(pasted.mime, u"image/png"_s);
    QVERIFY(pasted.path.isEmpty());
    QVERIFY(pasted.data.startsWith("\x89PNG"));
    QCOMPARE(QImage::fromData(pasted.data).size(), QSize(8, 6));
    // The same picture pasted twice is one chip.
    QVERIFY(AttachmentIntake::fromMimeData(&mime, outcome.added, Source::Paste).added.isEmpty());
}

void AttachmentIntakeTest::aPastedWebAddressStaysText()
{
    QMimeData mime;
    mime.setUrls({QUrl(u"https://example.com/"_s)});
    mime.setText(u"https://example.com/"_s);
    QVERIFY(!AttachmentIntake::fromMimeData(&mime, {}, Source::Paste).offered);
    // Dropped, it is an attachment that cannot be taken, and says so.
    QCOMPARE(AttachmentIntake::fromMimeData(&mime, {}, Source::Drop).problems.size(), 1);
}

void AttachmentIntakeTest::aPastedPictureOfTextStaysText()
{
    QImage image(2, 2, QImage::Format_RGB32);
    image.fill(Qt::white);
    QMimeData mime;
    mime.setImageData(image);
    mime.setText(u"a paragraph copied from a document"_s);
    QVERIFY(!AttachmentIntake::fromMimeData(&mime, {}, Source::Paste).offered);
}

void AttachmentIntakeTest::textAloneOffersNothing()
{
    QMimeData mime;
    mime.setText(u"just words"_s);
    const auto outcome = AttachmentIntake::fromMimeData(&mime, {}, Source::Drop);
    QVERIFY(!outcome.offered);
    QVERIFY(outcome.added.isEmpty());
}

QTEST_MAIN(AttachmentIntakeTest)
#include "tst_attachment_intake.moc"
