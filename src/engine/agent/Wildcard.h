#pragma once

// The permission wildcard moved to engine/glob with the other glob
// dialects; this header stays until src/engine/session includes it there.
#include "engine/glob/Wildcard.h"
