#include "OptionValue.h"

using namespace Qt::StringLiterals;

namespace qcode {

Result<std::optional<QString>> OptionValue::single(const QCommandLineParser &parser, const QCommandLineOption &option)
{
    const QStringList values = parser.values(option);
    const QString name = u"--"_s + option.names().constLast();
    if (values.isEmpty())
        return std::optional<QString>();
    if (values.size() > 1)
        return Error{tr("%1 was given more than once.").arg(name)};
    if (values.constFirst().trimmed().isEmpty())
        return Error{tr("%1 needs a value.").arg(name)};
    return std::optional<QString>(values.constFirst());
}

} // namespace qcode
