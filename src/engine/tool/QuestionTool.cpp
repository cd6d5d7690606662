#include "QuestionTool.h"

#include <QJsonArray>

#include "ToolArguments.h"

using namespace Qt::StringLiterals;

namespace qcode {

namespace {

QList<QuestionInfo> questionsFrom(const QJsonArray &array)
{
    QList<QuestionInfo> questions;
    for (const QJsonValue &value : array) {
        const QJsonObject object = value.toObject();
        QuestionInfo info;
        info.question = object.value(u"question"_s).toString();
        info.header = object.value(u"header"_s).toString();
        info.multiple = object.value(u"multiple"_s).toBool();
        for (const QJsonValue &option : object.value(u"options"_s).toArray()) {
            const QJsonObject o = option.toObject();
            info.options.append(QuestionOption{o.value(u"label"_s).toString(), o.value(u"description"_s).toString()});
        }
        questions.append(info);
    }
    return questions;
}

} // namespace

QuestionTool::QuestionTool(ToolServices services)
    : m_services(std::move(services))
{
}

QString QuestionTool::name() const
{
    return u"question"_s;
}

QString QuestionTool::description() const
{
    // Instructions for the model, in qcode's words; not translated.
    return u"Asks the user one or more questions while you work, and waits for the answers. Use it to learn "
           "preferences or requirements, to settle an ambiguous instruction, or to let the user choose between "
           "approaches.\n\n"
           "- Every question offers options; the user may also type an answer of their own, so do not add an "
           "\"Other\" option.\n"
           "- Put the option you recommend first and add \"(Recommended)\" to its label.\n"
           "- Set multiple to true when more than one option may be picked.\n"
           "- Keep headers short (at most 30 characters)."_s;
}

QJsonObject QuestionTool::parameters() const
{
    const QJsonObject option{
        {u"type"_s, u"object"_s},
        {u"properties"_s,
         QJsonObject{{u"label"_s, ToolArguments::stringProperty(u"Display text (1-5 words, concise)"_s)},
                     {u"description"_s, ToolArguments::stringProperty(u"Explanation of choice"_s)}}},
        {u"required"_s, QJsonArray{u"label"_s, u"description"_s}},
    };
    QJsonObject header = ToolArguments::stringProperty(u"Very short label (max 30 chars)"_s);
    header.insert(u"maxLength"_s, 30);
    const QJsonObject question{
        {u"type"_s, u"object"_s},
        {u"properties"_s,
         QJsonObject{
             {u"question"_s, ToolArguments::stringProperty(u"Complete question"_s)},
             {u"header"_s, header},
             {u"options"_s, QJsonObject{{u"type"_s, u"array"_s}, {u"items"_s, option},
                                        {u"description"_s, u"Available choices"_s}}},
             {u"multiple"_s, QJsonObject{{u"type"_s, u"boolean"_s},
                                         {u"description"_s, u"Allow selecting multiple choices"_s}}},
         }},
        {u"required"_s, QJsonArray{u"question"_s, u"header"_s, u"options"_s}},
    };
    return QJsonObject{
        {u"type"_s, u"object"_s},
        {u"properties"_s,
         QJsonObject{{u"questions"_s, QJsonObject{{u"type"_s, u"array"_s}, {u"items"_s, question}, {u"minItems"_s, 1},
                                                  {u"description"_s, u"Questions to ask"_s}}}}},
        {u"required"_s, QJsonArray{u"questions"_s}},
    };
}

QString QuestionTool::answerText(const QList<QuestionInfo> &questions, const QList<QStringList> &answers)
{
    QStringList pairs;
    for (qsizetype i = 0; i < questions.size(); ++i) {
        const QStringList answer = answers.value(i);
        const QString text = answer.isEmpty() ? u"Unanswered"_s : answer.join(u", "_s);
        pairs.append(u"\"%1\"=\"%2\""_s.arg(questions.at(i).question, text));
    }
    return u"User has answered your questions: %1. You can now continue with the user's answers in mind."_s.arg(
        pairs.join(u", "_s));
}

QCoro::Task<ToolResult> QuestionTool::execute(QJsonObject arguments, ToolContext context)
{
    const QList<QuestionInfo> questions = questionsFrom(arguments.value(u"questions"_s).toArray());
    if (!m_services.askQuestion)
        co_return ToolFailure{QStringLiteral("Questions cannot be asked here: nobody is there to answer them.")};

    QuestionRequest request;
    request.sessionID = context.sessionID;
    request.questions = questions;
    if (!context.callID.isEmpty())
        request.tool = PermissionToolRef{context.messageID, context.callID};
    QCoro::Task<std::optional<QList<QStringList>>> asking = m_services.askQuestion(request, context.abort);
    const std::optional<QList<QStringList>> answers = co_await asking;
    if (!answers)
        co_return ToolFailure{u"The user dismissed this question"_s, ToolFailure::Kind::PermissionRejected};

    ToolOutput output;
    output.output = answerText(questions, *answers);
    output.title = questions.size() == 1 ? u"Asked 1 question"_s : u"Asked %1 questions"_s.arg(questions.size());
    QJsonArray answerArray;
    for (const QStringList &answer : *answers)
        answerArray.append(QJsonArray::fromStringList(answer));
    output.metadata = QJsonObject{{u"answers"_s, answerArray}};
    co_return output;
}

} // namespace qcode
