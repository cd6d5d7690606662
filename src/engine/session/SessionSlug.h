#pragma once

#include <QString>

namespace qcode::SessionSlug {

// A short, readable name for a new session ("brave-otter"), as OpenCode
// gives every session a slug: two random words joined by a hyphen.
QString create();

} // namespace qcode::SessionSlug
