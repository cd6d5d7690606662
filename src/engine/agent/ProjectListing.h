#pragma once

#include <QString>

namespace qcode::ProjectListing {

// A short indented tree of the project ("src/", "  main.cpp" …) for the
// system prompt's <directories> block: at most `limit` entries, shallow
// ones first, hidden entries and the usual dependency and build folders
// left out. OpenCode 1.2 has this switched off; qcode does too unless the
// caller asks.
QString tree(const QString &root, int limit = 200);

} // namespace qcode::ProjectListing
