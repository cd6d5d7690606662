#include "SessionSearch.h"

#include <QAtomicInteger>
#include <QDir>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>

using namespace Qt::StringLiterals;

namespace qcode {
namespace {

// LIKE's wildcards typed by the person are meant literally.
QString likePattern(const QString &text)
{
    QString escaped = text;
    escaped.replace(u'\\', u"\\\\"_s);
    escaped.replace(u'%', u"\\%"_s);
    escaped.replace(u'_', u"\\_"_s);
    return u'%' + escaped + u'%';
}

Result<QStringList> search(QSqlDatabase &db, const QString &projectID, const QString &text)
{
    if (!db.open())
        return Error{SessionSearch::tr("The sessions could not be searched: %1").arg(db.lastError().text())};
    QSqlQuery query(db);
    query.prepare(u"SELECT DISTINCT p.session_id FROM part p JOIN session s ON s.id = p.session_id "
                  "WHERE s.project_id = ? AND json_extract(p.data, '$.type') IN ('text', 'reasoning') "
                  "AND json_extract(p.data, '$.text') LIKE ? ESCAPE '\\'"_s);
    query.addBindValue(projectID);
    query.addBindValue(likePattern(text));
    if (!query.exec())
        return Error{SessionSearch::tr("The sessions could not be searched: %1").arg(query.lastError().text())};
    QStringList ids;
    while (query.next())
        ids.append(query.value(0).toString());
    return ids;
}

} // namespace

Result<QStringList> SessionSearch::sessionsContaining(const QString &databasePath, const QString &projectID,
                                                      const QString &text)
{
    if (text.trimmed().isEmpty())
        return QStringList();
    static QAtomicInteger<int> counter;
    const QString name = u"qcode-search-%1"_s.arg(counter.fetchAndAddRelaxed(1));
    Result<QStringList> found = QStringList();
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(u"QSQLITE"_s, name);
        db.setDatabaseName(databasePath);
        db.setConnectOptions(u"QSQLITE_OPEN_READONLY;QSQLITE_BUSY_TIMEOUT=2000"_s);
        found = search(db, projectID, text.trimmed());
        db.close();
    }
    QSqlDatabase::removeDatabase(name);
    return found;
}

} // namespace qcode
