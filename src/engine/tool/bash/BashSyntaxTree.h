#pragma once

#include <QByteArray>
#include <QString>

#include <memory>

#include <tree_sitter/api.h>

namespace qcode {

// A bash line parsed by tree-sitter-bash (third_party/tree-sitter-bash).
// Owns the tree; nodes are valid while it lives. Offsets are bytes of the
// line's UTF-8.
class BashSyntaxTree
{
public:
    // Parses `line`; a line too long or too slow to parse gives a tree
    // without root (isValid() false).
    explicit BashSyntaxTree(const QString &line);

    // Whether the tree-sitter runtime accepts the vendored grammar's ABI.
    static bool languageLoads();

    bool isValid() const { return m_tree != nullptr; }
    TSNode root() const;
    const QByteArray &source() const { return m_source; }
    QString text(TSNode node) const;
    QString text(uint32_t start, uint32_t end) const;

private:
    struct TreeDeleter {
        void operator()(TSTree *tree) const { ts_tree_delete(tree); }
    };

    QByteArray m_source;
    std::unique_ptr<TSTree, TreeDeleter> m_tree;
};

} // namespace qcode
