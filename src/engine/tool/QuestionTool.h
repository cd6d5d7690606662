#pragma once

#include "Tool.h"
#include "ToolServices.h"

namespace qcode {

// OpenCode's `question` (reference §8.11): puts one or more questions with
// options to the person (QuestionAsked) and waits for the answers without
// blocking. The output the model reads:
//
//     User has answered your questions: "Q1"="A, B", "Q2"="Unanswered".
//     You can now continue with the user's answers in mind.
//
// A dismissal (or a prompt stopped meanwhile, or nobody there to answer)
// is "The user dismissed this question", which stops the loop as a
// rejected permission does.
class QuestionTool : public Tool
{
public:
    explicit QuestionTool(ToolServices services);

    QString name() const override;
    QString description() const override;
    QJsonObject parameters() const override;
    QCoro::Task<ToolResult> execute(QJsonObject arguments, ToolContext context) override;

    // The output text for `answers`, one list per question (missing or
    // empty ones are "Unanswered").
    static QString answerText(const QList<QuestionInfo> &questions, const QList<QStringList> &answers);

private:
    ToolServices m_services;
};

} // namespace qcode
