#pragma once

#include <QList>
#include <QString>

#include "BashLineAnalysis.h"
#include "BashSyntaxTree.h"

namespace qcode {

// The walk behind BashLineAnalysis: visits every node of a parsed line,
// collects the commands it can run, and marks the line opaque at the first
// thing it does not account for. Only the node types it names are
// understood; every other one is opaque, so a grammar update or a
// construct nobody thought of fails closed.
class BashLineWalker
{
public:
    BashLineWalker(const BashSyntaxTree &tree, BashLineAnalysis &out);
    void run();

private:
    // How bash reads literal text where the node sits.
    enum class Quoting {
        None,   // unquoted, or the top of $( ) and <( )
        Double, // in "…", $"…" or a here-doc body that expands
        Inert,  // in a here-doc body with a quoted delimiter
    };
    using Word = BashLineAnalysis::Word;

    void opaque(const QString &reason);
    bool stopped() const { return !m_out.m_opaqueReason.isEmpty(); }

    void visit(TSNode node, Quoting quoting, int depth);
    void visitChildren(TSNode node, Quoting quoting, int depth);
    void visitCommand(TSNode node, int depth);
    void visitDeclaration(TSNode node, int depth);
    void visitAssignment(TSNode node, Quoting quoting, int depth);
    void visitRedirect(TSNode node, int depth);
    void visitHeredoc(TSNode node, int depth);
    void visitExpansion(TSNode node, Quoting quoting, int depth);
    void visitArray(TSNode node, int depth);
    void visitTest(TSNode node, int depth);
    void visitCondition(TSNode node, int depth);
    void visitArithmetic(TSNode node, int depth);
    void checkSubscript(TSNode node, bool listAllowed);
    void checkComment(TSNode node);
    void checkBackquotes(TSNode node);
    void checkLiteral(TSNode node, Quoting quoting);
    void checkGaps();
    void checkGapRun(uint32_t start, uint32_t end, Quoting quoting);
    void flattenTestWords(TSNode node, QList<Word> &words, int depth);

    void record(TSNode node, const QList<Word> &words, bool setsVariables, qsizetype at = -1);
    void recordInner(const QList<Word> &words, qsizetype first, qsizetype end);
    void examine(const QList<Word> &words, qsizetype first, qsizetype end, int depth);
    std::optional<qsizetype> wrappedCommand(const QList<Word> &words, qsizetype first, qsizetype end);
    void examineShell(const QList<Word> &words, qsizetype first, qsizetype end);
    void examineDeclaration(const QString &name, const QList<Word> &words, qsizetype first, qsizetype end);
    void examineTest(const QList<Word> &words, qsizetype first, qsizetype end);
    void examineFind(const QList<Word> &words, qsizetype first, qsizetype end, int depth);
    void checkVariableName(const QString &name);

    Word word(TSNode node) const;
    std::optional<QString> staticValue(TSNode node, bool &expands) const;
    QString text(TSNode node) const { return m_tree.text(node); }

    const BashSyntaxTree &m_tree;
    BashLineAnalysis &m_out;
};

} // namespace qcode
