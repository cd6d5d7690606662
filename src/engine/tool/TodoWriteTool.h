#pragma once

#include "Tool.h"
#include "ToolServices.h"

namespace qcode {

// OpenCode's `todowrite` (reference §8.10): replaces the session's todo
// list in the store in one go, publishes TodoUpdated, and answers with the
// list (TodoFormat). Asks `todowrite`.
class TodoWriteTool : public Tool
{
public:
    explicit TodoWriteTool(ToolServices services);

    QString name() const override;
    QString description() const override;
    QJsonObject parameters() const override;
    QCoro::Task<ToolResult> execute(QJsonObject arguments, ToolContext context) override;

private:
    ToolServices m_services;
};

} // namespace qcode
