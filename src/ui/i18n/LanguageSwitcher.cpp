#include "LanguageSwitcher.h"

#include <QCoreApplication>
#include <QEvent>
#include <QLibraryInfo>
#include <QLoggingCategory>
#include <QTranslator>

using namespace Qt::StringLiterals;

namespace qcode {
namespace {

Q_LOGGING_CATEGORY(lcLanguage, "qcode.ui.language", QtInfoMsg)

// The locale a language name stands for; a name QLocale does not know
// (it would give the C locale) stands for the system's.
QLocale localeFor(const QString &language, const QLocale &system)
{
    if (language.isEmpty())
        return system;
    const QLocale named(language);
    return named.language() == QLocale::C ? system : named;
}

} // namespace

LanguageSwitcher::LanguageSwitcher(const QString &directory, QObject *parent)
    : QObject(parent)
    , m_directory(directory)
{
}

LanguageSwitcher::~LanguageSwitcher()
{
    removeAll();
}

LanguageSwitcher *LanguageSwitcher::instance()
{
    QCoreApplication *app = QCoreApplication::instance();
    Q_ASSERT_X(app, "LanguageSwitcher::instance", "needs a QCoreApplication");
    auto *switcher = app->findChild<LanguageSwitcher *>(QString(), Qt::FindDirectChildrenOnly);
    return switcher ? switcher : new LanguageSwitcher(QStringLiteral(":/i18n"), app);
}

void LanguageSwitcher::apply(const QString &language, const QLocale &system)
{
    const QLocale locale = localeFor(language, system);
    std::vector<std::unique_ptr<QTranslator>> next;
    QString translation = u"en"_s;
    if (std::unique_ptr<QTranslator> own = load(locale, u"qcode"_s, m_directory)) {
        if (!own->language().isEmpty())
            translation = own->language();
        next.push_back(std::move(own));
        // Qt's own words (a file dialog's buttons) in the same language,
        // where the system has Qt's translations.
        if (std::unique_ptr<QTranslator> qt =
                load(locale, u"qtbase"_s, QLibraryInfo::path(QLibraryInfo::TranslationsPath)))
            next.push_back(std::move(qt));
    } else if (std::unique_ptr<QTranslator> english = load(QLocale(QLocale::English), u"qcode"_s, m_directory)) {
        // English is the source language; its translation only has the
        // plural forms ("1 line", "2 lines").
        next.push_back(std::move(english));
    }

    removeAll();
    m_installed = std::move(next);
    for (const std::unique_ptr<QTranslator> &translator : m_installed)
        QCoreApplication::installTranslator(translator.get());
    m_language = language;
    m_translation = translation;
    QLocale::setDefault(locale);
    // Widgets that format by their own locale (spin boxes, date edits)
    // take the new default from this.
    if (QCoreApplication *app = QCoreApplication::instance()) {
        QEvent changed(QEvent::LocaleChange);
        QCoreApplication::sendEvent(app, &changed);
    }
    qCDebug(lcLanguage).noquote() << "language" << (language.isEmpty() ? u"(the system's)"_s : language) << "→"
                                  << translation << "translation," << locale.name() << "locale";
}

std::unique_ptr<QTranslator> LanguageSwitcher::load(const QLocale &locale, const QString &name,
                                                    const QString &directory) const
{
    auto translator = std::make_unique<QTranslator>();
    if (!translator->load(locale, name, u"_"_s, directory) || translator->isEmpty())
        return nullptr;
    return translator;
}

void LanguageSwitcher::removeAll()
{
    // A QCoreApplication being destroyed has let go of its translators.
    if (QCoreApplication::instance()) {
        for (const std::unique_ptr<QTranslator> &translator : m_installed)
            QCoreApplication::removeTranslator(translator.get());
    }
    m_installed.clear();
}

} // namespace qcode
