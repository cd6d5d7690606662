#include <QApplication>
#include <QCommandLineParser>
#include <QDir>
#include <QLibraryInfo>
#include <QLocale>
#include <QTranslator>
#include <QMessageBox>

#include <cstdio>

#include "CommandLine.h"
#include "DesktopIdentity.h"
#include "EngineHost.h"
#include "engine/config/DataPaths.h"
#include "instance/SingleInstance.h"
#include "run/RunCommand.h"
#include "model/Store.h"
#include "ui/settings/AppSettings.h"
#include "ui/window/MainWindow.h"

using namespace Qt::StringLiterals;

namespace {

// The data folder chosen in Settings applies from the start after the
// choice; QCODE_DATA_DIR, when set, still wins (tests, portable use).
void applyDataDirectorySetting()
{
    const QString chosen = qcode::AppSettings().dataDirectory();
    if (!chosen.isEmpty() && qEnvironmentVariableIsEmpty("QCODE_DATA_DIR"))
        qputenv("QCODE_DATA_DIR", QDir::toNativeSeparators(chosen).toLocal8Bit());
}

} // namespace

int main(int argc, char *argv[])
{
    // `qcode run` is headless: a core application, no display needed.
    if (qcode::CommandLine::isRunCommand(argc, argv)) {
        QCoreApplication app(argc, argv);
        qcode::CommandLine::setApplicationInfo();
        applyDataDirectorySetting();
        QTranslator translator;
        if (translator.load(QLocale(), u"qcode"_s, u"_"_s, u":/i18n"_s))
            app.installTranslator(&translator);
        return qcode::runCommandMain(app.arguments().mid(2));
    }

    // --help and --version must work without a display, so they are
    // answered before a QApplication exists.
    if (qcode::CommandLine::wantsTextOnly(argc, argv)) {
        QCoreApplication app(argc, argv);
        qcode::CommandLine::setApplicationInfo();
        QCommandLineParser parser;
        qcode::CommandLine::configure(parser);
        parser.process(app);
        return 0;
    }

    QApplication app(argc, argv);
    qcode::CommandLine::setApplicationInfo();
    qcode::DesktopIdentity::apply();
    applyDataDirectorySetting();
    QTranslator qtTranslator;
    if (qtTranslator.load(QLocale(), u"qtbase"_s, u"_"_s, QLibraryInfo::path(QLibraryInfo::TranslationsPath)))
        app.installTranslator(&qtTranslator);
    QTranslator translator;
    if (translator.load(QLocale(), u"qcode"_s, u"_"_s, u":/i18n"_s))
        app.installTranslator(&translator);
    QCommandLineParser parser;
    qcode::CommandLine::configure(parser);
    parser.process(app);
    const QStringList folders = parser.positionalArguments();
    const QString folder = folders.isEmpty() ? QString() : QDir(folders.first()).absolutePath();

    // A later launch hands its folder to the window already open and ends.
    qcode::SingleInstance instance(qcode::DataPaths::dataDirectory());
    if (!qcode::CommandLine::wantsNewInstance(parser)
        && instance.start(folder) == qcode::SingleInstance::Role::HandedOff)
        return 0;

    auto store = qcode::Store::open(qcode::DataPaths::databaseFile());
    if (!store) {
        std::fprintf(stderr, "qcode: %s\n", qPrintable(store.error().message));
        QMessageBox::critical(nullptr, QCoreApplication::translate("main", "qcode cannot start"),
                              store.error().message);
        return 1;
    }

    qcode::EngineHost engine;
    qcode::MainWindow window(store->get(), engine.engine());
    window.show();
    if (!folder.isEmpty())
        window.openProject(folder);
    QObject::connect(&instance, &qcode::SingleInstance::activationRequested, &window,
                     [&window](const QString &requested) {
                         if (window.isMinimized())
                             window.showNormal();
                         window.raise();
                         window.activateWindow();
                         if (!requested.isEmpty())
                             window.openProject(requested);
                     });
    return app.exec();
}
