#include <QJsonObject>
#include <QLabel>
#include <QPushButton>
#include <QSignalSpy>
#include <QTest>

#include "ui/chat/ChatColors.h"
#include "ui/chat/MessageWidget.h"

using namespace Qt::StringLiterals;
using namespace qcode;

namespace {

MessageWithParts failedStep(const QString &name, const QJsonObject &data)
{
    AssistantMessage message;
    message.id = u"msg_1"_s;
    message.sessionID = u"ses_1"_s;
    message.error = NamedError{name, data};
    return MessageWithParts{Message(message), {}};
}

QJsonObject apiError(int status, const QString &message)
{
    return QJsonObject{{u"message"_s, message}, {u"statusCode"_s, status}};
}

template<typename T>
T *child(QWidget *parent, const QString &name)
{
    T *found = parent->findChild<T *>(name);
    if (!found)
        qFatal("no %s named %s", T::staticMetaObject.className(), qPrintable(name));
    return found;
}

} // namespace

// A provider's error in the chat reads as an error (tinted box, icon, the
// error colour) and offers the fix it needs.
class ErrorInChatTest : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void aRefusedKeyIsStyledAsAnErrorAndOffersSettingsAndRetry()
    {
        MessageWidget widget{ChatContext{}};
        widget.setMessage(failedStep(u"APIError"_s, apiError(401, u"Invalid API key"_s)));
        widget.show();
        QVERIFY(QTest::qWaitForWindowExposed(&widget));

        auto *box = child<QFrame>(&widget, u"messageError"_s);
        QVERIFY(box->isVisible());
        QVERIFY(box->autoFillBackground());
        QCOMPARE(box->palette().color(QPalette::Window), ChatColors::errorBackground(widget.palette()));
        QVERIFY(box->palette().color(QPalette::Window) != widget.palette().color(QPalette::Base));
        QVERIFY(!child<QLabel>(&widget, u"errorIcon"_s)->pixmap().isNull());
        auto *text = child<QLabel>(&widget, u"errorText"_s);
        QCOMPARE(text->text(), u"Invalid API key"_s);
        QCOMPARE(text->palette().color(QPalette::WindowText), ChatColors::error(widget.palette()));

        auto *settings = child<QPushButton>(&widget, u"openSettingsButton"_s);
        QVERIFY(settings->isVisible());
        QCOMPARE(settings->text(), u"Open Settings"_s);
        QVERIFY(child<QPushButton>(&widget, u"retryButton"_s)->isVisible());
        QSignalSpy asked(&widget, &MessageWidget::settingsRequested);
        settings->click();
        QCOMPARE(asked.count(), 1);
    }

    void aForbiddenKeyOffersSettingsToo()
    {
        MessageWidget widget{ChatContext{}};
        widget.setMessage(failedStep(u"APIError"_s, apiError(403, u"Forbidden"_s)));
        widget.show();
        QVERIFY(child<QPushButton>(&widget, u"openSettingsButton"_s)->isVisible());
    }

    void aServerErrorOffersRetryButNotSettings()
    {
        MessageWidget widget{ChatContext{}};
        widget.setMessage(failedStep(u"APIError"_s, apiError(500, u"Internal error"_s)));
        widget.show();
        QVERIFY(QTest::qWaitForWindowExposed(&widget));
        QVERIFY(child<QPushButton>(&widget, u"retryButton"_s)->isVisible());
        QVERIFY(!child<QPushButton>(&widget, u"openSettingsButton"_s)->isVisible());
        QVERIFY(child<QLabel>(&widget, u"errorIcon"_s)->isVisible());
    }

    void aStopIsSaidQuietlyNotAsAnError()
    {
        MessageWidget widget{ChatContext{}};
        widget.setMessage(failedStep(u"MessageAbortedError"_s, QJsonObject{{u"message"_s, u"Aborted"_s}}));
        widget.show();
        QVERIFY(QTest::qWaitForWindowExposed(&widget));
        QCOMPARE(child<QLabel>(&widget, u"errorText"_s)->text(), u"Stopped."_s);
        QVERIFY(!child<QLabel>(&widget, u"errorIcon"_s)->isVisible());
        QVERIFY(!child<QFrame>(&widget, u"messageError"_s)->autoFillBackground());
        QVERIFY(!child<QPushButton>(&widget, u"retryButton"_s)->isVisible());
        QVERIFY(!child<QPushButton>(&widget, u"openSettingsButton"_s)->isVisible());
    }

    void theErrorStaysReadableInTheDarkTheme()
    {
        QPalette dark;
        dark.setColor(QPalette::Base, QColor(0x1e, 0x1e, 0x1e));
        dark.setColor(QPalette::Window, QColor(0x25, 0x25, 0x25));
        dark.setColor(QPalette::Text, QColor(0xdd, 0xdd, 0xdd));
        const QColor background = ChatColors::errorBackground(dark);
        QVERIFY(background.lightness() < 90); // still dark behind light text
        QVERIFY(ChatColors::error(dark).lightness() > background.lightness() + 60);
    }
};

QTEST_MAIN(ErrorInChatTest)
#include "tst_error_in_chat.moc"
