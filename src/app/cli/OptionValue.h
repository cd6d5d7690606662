#pragma once

#include <QCommandLineOption>
#include <QCommandLineParser>
#include <QCoreApplication>
#include <QString>

#include <optional>

#include "model/Result.h"

namespace qcode {

// What the headless commands (`qcode run`, `export`, `import`, `sessions`)
// share in reading their command lines.
class OptionValue
{
    Q_DECLARE_TR_FUNCTIONS(OptionValue)

public:
    // The single value of an option that takes one, or an error when it was
    // given twice or empty: silently taking the last of two models, agents
    // or files would do something the person did not ask for.
    static Result<std::optional<QString>> single(const QCommandLineParser &parser, const QCommandLineOption &option);
};

} // namespace qcode
