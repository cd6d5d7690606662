#pragma once

#include <QJsonObject>
#include <QObject>
#include <QTimer>

#include <functional>
#include <optional>

#include "model/Result.h"

namespace qcode {

// One request waiting for its response: its timeout, its progress token
// and, once done, its result. done() is emitted once.
class McpPendingRequest : public QObject
{
    Q_OBJECT

public:
    using QObject::QObject;

    qint64 id = 0;
    QString method;
    QString progressToken;
    bool resetTimeoutOnProgress = true;
    std::function<void(double, double, const QString &)> onProgress;
    QTimer timer;
    std::optional<Result<QJsonObject>> result;

    void finish(Result<QJsonObject> value)
    {
        if (result)
            return;
        timer.stop();
        result = std::move(value);
        Q_EMIT done();
    }

Q_SIGNALS:
    void done();
};

} // namespace qcode
