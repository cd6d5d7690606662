#pragma once

#include <QString>

namespace qcode {

// One entry of a session's todo list (todowrite/todoread); its position is
// its index in the list.
struct Todo {
    QString content;
    QString status;   // pending, in_progress, completed, cancelled
    QString priority; // high, medium, low

    bool operator==(const Todo &) const = default;
};

} // namespace qcode
