#pragma once

#include <QJsonObject>
#include <QStringList>

namespace qcode::JsonMerge {

// OpenCode's config merge (mergeDeep, then mergeConfigConcatArrays):
// objects merge key by key, recursively; any other value in `over`
// replaces the one in `base`; the top-level arrays named in
// `concatenatedKeys` are joined instead, without duplicates.
QJsonObject deepMerge(const QJsonObject &base, const QJsonObject &over,
                      const QStringList &concatenatedKeys = {});

// The keys OpenCode concatenates across config files.
QStringList configConcatenatedKeys();

} // namespace qcode::JsonMerge
