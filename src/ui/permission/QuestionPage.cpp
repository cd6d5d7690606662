#include "QuestionPage.h"

#include <QButtonGroup>
#include <QCheckBox>
#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QRadioButton>
#include <QStyle>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;

namespace qcode {
namespace {

QLabel *wrappedLabel(const QString &text, QWidget *parent)
{
    auto *label = new QLabel(text, parent);
    label->setTextFormat(Qt::PlainText); // the model's words, never markup
    label->setWordWrap(true);
    return label;
}

} // namespace

QuestionPage::QuestionPage(const QuestionInfo &question, QWidget *parent)
    : QWidget(parent)
    , m_question(question)
{
    auto *layout = new QVBoxLayout(this);
    if (!question.header.isEmpty()) {
        auto *header = wrappedLabel(question.header, this);
        QFont bold = header->font();
        bold.setBold(true);
        header->setFont(bold);
        layout->addWidget(header);
    }
    auto *text = wrappedLabel(question.question, this);
    text->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(text);
    if (question.multiple) {
        m_pickAny = wrappedLabel(QString(), this);
        layout->addWidget(m_pickAny);
    }

    m_group = new QButtonGroup(this);
    m_group->setExclusive(!question.multiple);
    for (const QuestionOption &option : question.options)
        m_options.append(addChoice(option.label, option.description));
    m_other = addChoice({}, {});
    m_other->setObjectName(u"otherChoice"_s);
    m_otherEdit = new QLineEdit(this);
    m_otherEdit->setObjectName(u"otherEdit"_s);
    layout->addWidget(m_otherEdit);
    layout->addStretch(1);
    retranslateUi();

    // Typing an answer of one's own picks "Other…".
    connect(m_otherEdit, &QLineEdit::textEdited, this, [this](const QString &words) {
        if (!words.trimmed().isEmpty())
            m_other->setChecked(true);
        Q_EMIT changed();
    });
    connect(m_other, &QAbstractButton::toggled, this, [this](bool on) {
        if (on)
            m_otherEdit->setFocus(Qt::OtherFocusReason);
    });
    connect(m_group, &QButtonGroup::buttonToggled, this, [this] { Q_EMIT changed(); });
}

void QuestionPage::retranslateUi()
{
    if (m_pickAny)
        m_pickAny->setText(tr("Pick any that apply."));
    m_other->setText(tr("&Other…"));
    m_otherEdit->setPlaceholderText(tr("Your own answer"));
    m_otherEdit->setAccessibleName(tr("Your own answer"));
}

void QuestionPage::changeEvent(QEvent *event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::LanguageChange)
        retranslateUi();
}

QAbstractButton *QuestionPage::addChoice(const QString &text, const QString &description)
{
    QString shown = text;
    shown.replace(u'&', "&&"_L1); // the model's "&" is no mnemonic
    QAbstractButton *button = nullptr;
    if (m_question.multiple)
        button = new QCheckBox(shown, this);
    else
        button = new QRadioButton(shown, this);
    m_group->addButton(button);
    auto *box = qobject_cast<QVBoxLayout *>(layout());
    box->addWidget(button);
    if (!description.isEmpty()) {
        auto *label = wrappedLabel(description, this);
        // Under the button's text, not under its indicator.
        const int indent = style()->pixelMetric(m_question.multiple ? QStyle::PM_IndicatorWidth
                                                                    : QStyle::PM_ExclusiveIndicatorWidth,
                                                nullptr, button)
                           + style()->pixelMetric(QStyle::PM_RadioButtonLabelSpacing, nullptr, button);
        label->setContentsMargins(indent, 0, 0, 0);
        label->setForegroundRole(QPalette::PlaceholderText); // quieter, in light and dark themes alike
        label->setBuddy(button);
        box->addWidget(label);
    }
    return button;
}

QStringList QuestionPage::answer() const
{
    QStringList picked;
    for (qsizetype i = 0; i < m_options.size(); ++i) {
        if (m_options.at(i)->isChecked())
            picked.append(m_question.options.at(i).label);
    }
    const QString own = m_otherEdit->text().trimmed();
    if (m_other->isChecked() && !own.isEmpty())
        picked.append(own);
    return picked;
}

QList<QAbstractButton *> QuestionPage::choices() const
{
    QList<QAbstractButton *> all = m_options;
    all.append(m_other);
    return all;
}

} // namespace qcode
