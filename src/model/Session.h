#pragma once

#include <QJsonArray>
#include <QJsonObject>
#include <QMetaType>
#include <QString>

#include <optional>

#include "Result.h"

namespace qcode {

struct SessionTime {
    qint64 created = 0;
    qint64 updated = 0;
    std::optional<qint64> compacting;
    std::optional<qint64> archived;
};

struct SessionSummary {
    qint64 additions = 0;
    qint64 deletions = 0;
    qint64 files = 0;
    std::optional<QJsonArray> diffs;
};

// OpenCode's Session.Info (reference 1.2).
struct Session {
    QString id;
    QString slug;
    QString projectID;
    std::optional<QString> workspaceID;
    QString directory;
    std::optional<QString> parentID;
    QString title;
    QString version;
    SessionTime time;
    std::optional<SessionSummary> summary;
    std::optional<QString> shareUrl;
    std::optional<QJsonArray> permission;
    std::optional<QJsonObject> revert;
    QJsonObject extra; // fields qcode does not know, kept for the round trip

    bool isChild() const { return parentID.has_value(); }

    QJsonObject toJson() const;
    static Result<Session> fromJson(const QJsonObject &json);

    friend bool operator==(const Session &a, const Session &b) { return a.toJson() == b.toJson(); }
};

} // namespace qcode

Q_DECLARE_METATYPE(qcode::Session)
