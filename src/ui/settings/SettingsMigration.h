#pragma once

namespace qcode::SettingsMigration {

// Earlier versions named no organisation, so QSettings kept the window's
// settings under "Unknown Organization". Moves them, once, to the
// application's own place: copied only where nothing is stored yet, then
// removed from the old place. Returns the number of values moved.
int moveFromUnknownOrganization();

} // namespace qcode::SettingsMigration
