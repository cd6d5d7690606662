#pragma once

#include <QString>

namespace qcode {

// The canonical, lower-case name of a language given as a Markdown fence's
// info string or as a file name: the first word, braces and dots of
// "{.python}" dropped, common aliases folded ("c++" → "cpp", "py" → "python",
// "sh" → "bash", "ts" → "typescript", "main.rs" → "rust",
// "CMakeLists.txt" → "cmake"). Unknown names come back lower-cased; an empty
// or unusable string comes back empty.
QString canonicalLanguage(const QString &languageOrFileName);

} // namespace qcode
