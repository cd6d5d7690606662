// Settings › General › Network: the proxy and the extra certificate file are
// saved when usable, and a text that cannot be used is refused with a
// message and leaves the saved value alone.

#include <QtTest>

#include <QLineEdit>
#include <QSettings>
#include <QTemporaryDir>

#include "ui/settings/AppSettings.h"
#include "ui/settings/InlineMessage.h"
#include "ui/settings/NetworkBox.h"

using namespace Qt::StringLiterals;
using namespace qcode;

namespace {

void enter(QLineEdit *edit, const QString &text)
{
    edit->setText(text);
    Q_EMIT edit->editingFinished();
}

} // namespace

class NetworkBoxTest : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setApplicationName(u"qcode-network-box-tests"_s);
    }
    void init() { QSettings().clear(); }

    void aProxyAddressIsSavedAndNonsenseIsRefused()
    {
        AppSettings settings;
        NetworkBox box(&settings);
        auto *proxy = box.findChild<QLineEdit *>(u"proxyEdit"_s);
        auto *message = box.findChild<InlineMessage *>(u"networkMessage"_s);
        QVERIFY(proxy && message);

        enter(proxy, u"http://ada:secret@proxy.example.com:3128"_s);
        QCOMPARE(settings.proxy(), u"http://ada:secret@proxy.example.com:3128"_s);

        enter(proxy, u"http://"_s);
        QCOMPARE(settings.proxy(), u"http://ada:secret@proxy.example.com:3128"_s);
        QVERIFY2(message->text().contains(u"not a proxy address"_s), qPrintable(message->text()));

        enter(proxy, QString());
        QCOMPARE(settings.proxy(), QString());
    }

    void aCertificateFileThatHoldsNoCertificateIsRefused()
    {
        AppSettings settings;
        NetworkBox box(&settings);
        auto *file = box.findChild<QLineEdit *>(u"certificateFileEdit"_s);
        auto *message = box.findChild<InlineMessage *>(u"networkMessage"_s);
        QVERIFY(file && message);
        QTemporaryDir dir;
        const QString notPem = dir.filePath(u"notes.txt"_s);
        QFile notes(notPem);
        QVERIFY(notes.open(QIODevice::WriteOnly));
        notes.write("just some notes\n");
        notes.close();

        enter(file, notPem);
        QCOMPARE(settings.certificateFile(), QString());
        QVERIFY2(message->text().contains(u"no PEM certificate"_s), qPrintable(message->text()));

        enter(file, dir.filePath(u"missing.pem"_s));
        QCOMPARE(settings.certificateFile(), QString());
        QVERIFY2(message->text().contains(u"missing.pem"_s), qPrintable(message->text()));
    }
};

QTEST_MAIN(NetworkBoxTest)
#include "tst_network_box.moc"
