#pragma once

namespace qcode::DesktopIdentity {

// Tells the desktop which application the windows belong to: the
// reverse-DNS id (Wayland's app id, matching dev.qcode.QCode.desktop, so
// docks show the right entry and icon) and the window icon, drawn from
// PNGs built into the binary, so no SVG plugin or installed theme is needed.
// Call once the QApplication exists.
void apply();

} // namespace qcode::DesktopIdentity
