#include "AgentPaths.h"

#include <QDir>

using namespace Qt::StringLiterals;

namespace qcode {

QString AgentPaths::toolOutputGlob() const
{
    return QDir(dataDirectory).filePath(u"tool-output"_s) + u"/*"_s;
}

QString AgentPaths::plansDirectory() const
{
    return QDir(dataDirectory).filePath(u"plans"_s);
}

} // namespace qcode
