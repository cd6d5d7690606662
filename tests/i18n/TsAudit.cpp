#include "TsAudit.h"

#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QRegularExpression>
#include <QSaveFile>
#include <QTemporaryDir>
#include <QXmlStreamReader>

using namespace Qt::StringLiterals;

namespace qcode::test {

namespace {

// lupdate reads a few hundred files in well under a second; a loaded
// machine gets a generous margin.
constexpr int LupdateTimeoutMs = 120'000;

struct Entry {
    QString source;
    QString type;
    QStringList forms; // one for a plain entry, one per plural form otherwise
};

QString problemOf(const QString &context, const Entry &entry)
{
    if (context.isEmpty())
        return u"no context"_s;
    if (entry.type == "unfinished"_L1 || entry.type == "vanished"_L1 || entry.type == "obsolete"_L1)
        return entry.type;
    if (entry.forms.isEmpty())
        return u"empty"_s;
    for (const QString &form : entry.forms) {
        if (form.isEmpty())
            return u"empty"_s;
    }
    return {};
}

// Reads one <message>: its source, the translation's type and forms.
Entry readMessage(QXmlStreamReader &xml)
{
    Entry entry;
    while (xml.readNextStartElement()) {
        if (xml.name() == "source"_L1) {
            entry.source = xml.readElementText();
        } else if (xml.name() == "translation"_L1) {
            entry.type = xml.attributes().value("type"_L1).toString();
            QString text;
            bool numerus = false;
            while (!xml.atEnd()) {
                xml.readNext();
                if (xml.isCharacters()) {
                    text += xml.text();
                } else if (xml.isStartElement() && xml.name() == "numerusform"_L1) {
                    numerus = true;
                    entry.forms.append(xml.readElementText());
                } else if (xml.isStartElement()) {
                    xml.skipCurrentElement();
                } else if (xml.isEndElement()) {
                    break;
                }
            }
            if (!numerus)
                entry.forms.append(text);
        } else {
            xml.skipCurrentElement();
        }
    }
    return entry;
}

TsAudit::Outcome failure(const QString &error)
{
    TsAudit::Outcome outcome;
    outcome.error = error;
    return outcome;
}

} // namespace

QString TsAudit::Finding::toString() const
{
    return u"%1: context \"%2\", source \"%3\""_s.arg(problem, context, source);
}

TsAudit::TsAudit(QString lupdate, QStringList sources) : m_lupdate(std::move(lupdate)), m_sources(std::move(sources))
{
}

TsAudit::Outcome TsAudit::audit(const QString &tsFile, bool pluralOnly) const
{
    QTemporaryDir dir;
    if (!dir.isValid())
        return failure(u"no temporary folder: %1"_s.arg(dir.errorString()));
    const QString copy = dir.filePath(QFileInfo(tsFile).fileName());
    if (!QFile::copy(tsFile, copy))
        return failure(u"%1 could not be copied"_s.arg(tsFile));
    QFile::setPermissions(copy, QFile::ReadOwner | QFile::WriteOwner);

    QSaveFile list(dir.filePath(u"sources.lst"_s));
    if (!list.open(QIODevice::WriteOnly) || list.write(m_sources.join(u'\n').toUtf8()) < 0 || !list.commit())
        return failure(u"the list of sources could not be written: %1"_s.arg(list.errorString()));

    QStringList arguments{u"-locations"_s, u"none"_s};
    if (pluralOnly)
        arguments.append(u"-pluralonly"_s);
    arguments << u"@"_s + list.fileName() << u"-ts"_s << copy;
    QProcess lupdate;
    lupdate.setProcessChannelMode(QProcess::MergedChannels);
    lupdate.start(m_lupdate, arguments);
    if (!lupdate.waitForFinished(LupdateTimeoutMs) || lupdate.exitStatus() != QProcess::NormalExit
        || lupdate.exitCode() != 0) {
        lupdate.kill();
        return failure(u"%1 %2 failed: %3 %4"_s.arg(m_lupdate, arguments.join(u' '), lupdate.errorString(),
                                                    QString::fromLocal8Bit(lupdate.readAll())));
    }
    Outcome outcome = read(copy);
    // Its progress lines ("Updating …", "Found …") name no source line.
    static const QRegularExpression located(u"^.+:\\d+: "_s);
    for (const QString &line : QString::fromLocal8Bit(lupdate.readAll()).split(u'\n')) {
        if (located.match(line).hasMatch())
            outcome.warnings.append(line.trimmed());
    }
    return outcome;
}

TsAudit::Outcome TsAudit::read(const QString &tsFile)
{
    QFile file(tsFile);
    if (!file.open(QIODevice::ReadOnly))
        return failure(u"%1 could not be read: %2"_s.arg(tsFile, file.errorString()));
    Outcome outcome;
    QXmlStreamReader xml(&file);
    if (!xml.readNextStartElement() || xml.name() != "TS"_L1)
        return failure(u"%1 is not a Qt Linguist file"_s.arg(tsFile));
    while (xml.readNextStartElement()) {
        if (xml.name() != "context"_L1) {
            xml.skipCurrentElement();
            continue;
        }
        QString context;
        while (xml.readNextStartElement()) {
            if (xml.name() == "name"_L1) {
                context = xml.readElementText();
            } else if (xml.name() == "message"_L1) {
                const Entry entry = readMessage(xml);
                ++outcome.entries;
                if (const QString problem = problemOf(context, entry); !problem.isEmpty())
                    outcome.findings.append({context, entry.source, problem});
            } else {
                xml.skipCurrentElement();
            }
        }
    }
    if (xml.hasError())
        return failure(u"%1 is malformed at line %2: %3"_s.arg(tsFile).arg(xml.lineNumber()).arg(xml.errorString()));
    return outcome;
}

} // namespace qcode::test
