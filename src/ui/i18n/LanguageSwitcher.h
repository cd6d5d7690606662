#pragma once

#include <QLocale>
#include <QObject>
#include <QString>

#include <memory>
#include <vector>

class QTranslator;

namespace qcode {

// The language qcode speaks, applied at once: the application's
// translators (qcode's own from :/i18n, Qt's qtbase for its dialogs and
// context menus) and the default locale that numbers and dates follow.
// Installing and removing translators makes Qt send every widget
// QEvent::LanguageChange, on which each one retranslates itself from what
// it holds, so a switch loses nothing on screen.
//
// Qt Core only: `qcode run` uses it as the window does.
class LanguageSwitcher : public QObject
{
    Q_OBJECT

public:
    // `directory` holds qcode_<locale>.qm.
    explicit LanguageSwitcher(const QString &directory = QStringLiteral(":/i18n"), QObject *parent = nullptr);
    ~LanguageSwitcher() override;

    // The application's switcher, made on first use as a child of the
    // QCoreApplication: there is one set of installed translators.
    static LanguageSwitcher *instance();

    // `language`: a locale name ("zh_CN", "de", "en"), or "" to follow
    // `system`. Where qcode has no translation it speaks English (with
    // qcode_en.qm's plural forms when that exists); numbers and dates
    // still follow the language chosen.
    void apply(const QString &language, const QLocale &system = QLocale::system());

    // What apply() was last given.
    QString language() const { return m_language; }
    // The translation in use ("zh_CN"); "en" for qcode's own English.
    QString translation() const { return m_translation; }

private:
    std::unique_ptr<QTranslator> load(const QLocale &locale, const QString &name, const QString &directory) const;
    void removeAll();

    QString m_directory;
    QString m_language;
    QString m_translation = QStringLiteral("en");
    std::vector<std::unique_ptr<QTranslator>> m_installed;
};

} // namespace qcode
