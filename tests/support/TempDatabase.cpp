#include "TempDatabase.h"

#include <QDateTime>
#include <QTest>

#include "model/Identifier.h"

using namespace Qt::StringLiterals;

namespace qcode::test {

TempDatabase::TempDatabase()
{
    if (!m_dir.isValid())
        qFatal("cannot create a temporary folder: %s", qPrintable(m_dir.errorString()));
}

QString TempDatabase::path() const
{
    return m_dir.filePath(u"qcode.db"_s);
}

std::unique_ptr<Store> TempDatabase::open(StoreOptions options) const
{
    auto store = Store::open(path(), options);
    if (!store) {
        QTest::qFail(qPrintable(store.error().message), __FILE__, __LINE__);
        return nullptr;
    }
    return std::move(store).value();
}

Project makeProject(const QString &id, const QString &worktree)
{
    Project p;
    p.id = id;
    p.worktree = worktree;
    return p;
}

Session makeSession(const QString &projectID, const QString &parentID)
{
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    Session s;
    s.id = Identifier::descending(Identifier::Prefix::Session);
    s.slug = u"brave-otter"_s;
    s.projectID = projectID;
    s.directory = u"/work"_s;
    if (!parentID.isEmpty())
        s.parentID = parentID;
    s.title = u"New session - %1"_s.arg(QDateTime::fromMSecsSinceEpoch(now, Qt::UTC).toString(Qt::ISODateWithMs));
    s.version = u"0.1.0"_s;
    s.time.created = now;
    s.time.updated = now;
    return s;
}

Message makeUserMessage(const QString &sessionID, qint64 created)
{
    UserMessage m;
    m.id = Identifier::ascending(Identifier::Prefix::Message);
    m.sessionID = sessionID;
    m.created = created ? created : QDateTime::currentMSecsSinceEpoch();
    m.agent = u"build"_s;
    m.model = ModelRef{u"anthropic"_s, u"claude-sonnet-4-5"_s};
    return m;
}

Message makeAssistantMessage(const QString &sessionID, const QString &parentID, qint64 created)
{
    AssistantMessage m;
    m.id = Identifier::ascending(Identifier::Prefix::Message);
    m.sessionID = sessionID;
    m.created = created ? created : QDateTime::currentMSecsSinceEpoch();
    m.parentID = parentID;
    m.providerID = u"anthropic"_s;
    m.modelID = u"claude-sonnet-4-5"_s;
    m.mode = u"build"_s;
    m.agent = u"build"_s;
    m.cwd = u"/work"_s;
    m.root = u"/work"_s;
    return m;
}

Part makeTextPart(const QString &sessionID, const QString &messageID, const QString &text)
{
    return Part{Identifier::ascending(Identifier::Prefix::Part), sessionID, messageID, TextPart{text, {}, {}, {}, {}},
                {}};
}

} // namespace qcode::test
