#pragma once

#include "Tool.h"
#include "ToolServices.h"

namespace qcode {

// OpenCode's `todoread` (defined there, not registered in 1.2): the
// session's stored todo list, shown as todowrite shows it. Asks `todoread`.
class TodoReadTool : public Tool
{
public:
    explicit TodoReadTool(ToolServices services);

    QString name() const override;
    QString description() const override;
    QJsonObject parameters() const override;
    QCoro::Task<ToolResult> execute(QJsonObject arguments, ToolContext context) override;

private:
    ToolServices m_services;
};

} // namespace qcode
