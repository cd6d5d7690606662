#include <QApplication>
#include <QCommandLineParser>
#include <QDir>
#include <QMessageBox>

#include <cstdio>

#include "CommandLine.h"
#include "DesktopIdentity.h"
#include "EngineHost.h"
#include "engine/config/DataPaths.h"
#include "engine/config/FallbackSecretStore.h"
#include "engine/config/KeychainSecretStore.h"
#include "engine/network/NetworkSetup.h"
#include "instance/SingleInstance.h"
#include "model/Store.h"
#include "ui/i18n/LanguageSwitcher.h"
#include "ui/settings/AppSettings.h"
#include "ui/settings/SettingsMigration.h"
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

// Proxies and extra certificate authorities, before anything is sent.
QStringList applyNetworkSettings()
{
    const qcode::AppSettings settings;
    qcode::NetworkSetup::Options options;
    options.proxy = settings.proxy();
    options.certificateFile = settings.certificateFile();
    return qcode::NetworkSetup::apply(options);
}

} // namespace

int main(int argc, char *argv[])
{
    // `qcode run`, `export`, `import` and `sessions` are headless: a core
    // application, no display needed.
    if (qcode::CommandLine::isHeadlessCommand(argc, argv)) {
        // Qt's own event dispatcher rather than GLib's: a streamed answer
        // crosses event loops (Qt's network thread, the engine, this one)
        // once per chunk, and GLib's wakes the receiving thread with a
        // write for every event posted to it (20,000 for a 20,000-delta
        // answer) where Qt's coalesces them. Nothing headless needs GLib's
        // loop; it serves desktop integration. Each thread reads the
        // variable when it starts, so it is set before any; a person's own
        // QT_NO_GLIB stands.
        if (qEnvironmentVariableIsEmpty("QT_NO_GLIB"))
            qputenv("QT_NO_GLIB", "1");
        QCoreApplication app(argc, argv);
        qcode::CommandLine::setApplicationInfo();
        qcode::SettingsMigration::moveFromUnknownOrganization();
        applyDataDirectorySetting();
        qcode::LanguageSwitcher::instance()->apply(qcode::AppSettings().language());
        for (const QString &problem : applyNetworkSettings())
            std::fprintf(stderr, "qcode: %s\n", qPrintable(problem));
        return qcode::CommandLine::runHeadless(app.arguments().mid(1));
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
    qcode::SettingsMigration::moveFromUnknownOrganization();
    applyDataDirectorySetting();
    // The language saved in Settings, else the system's; the window
    // applies later changes as they are made.
    qcode::LanguageSwitcher::instance()->apply(qcode::AppSettings().language());
    for (const QString &problem : applyNetworkSettings())
        qWarning().noquote() << problem;
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

    // One key store for the engine and Settings: the keychain, or the
    // private key file where none runs (and the window says so).
    qcode::KeychainSecretStore keychain;
    qcode::FallbackSecretStore secrets(&keychain, qcode::FallbackSecretStore::systemFilePath());
    qcode::EngineOptions options;
    options.secrets = &secrets;
    qcode::EngineHost engine(std::move(options));
    qcode::MainWindow window(store->get(), engine.engine());
    window.setSecretStore(&secrets);
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
