#include "ToolCard.h"

#include <QDateTime>
#include <QDir>
#include <QEvent>
#include <QLabel>
#include <QPainter>
#include <QPointer>
#include <QVBoxLayout>

#include "DiffView.h"
#include "OutputView.h"
#include "ToolCardHeader.h"
#include "ToolCardLogging.h"
#include "ToolColors.h"
#include "ToolSpinner.h"
#include "ui/permission/PermissionAskPanel.h"
#include "ui/permission/QuestionAskPanel.h"

using namespace Qt::StringLiterals;

namespace qcode {

namespace {

constexpr int Radius = 6;

// The details' fixed order, whichever of them a card comes to need.
enum Slot { InputSlot, DiffSlot, TodosSlot, DetailsSlot, OutputSlot, NotesSlot, ErrorSlot };
static_assert(ErrorSlot + 1 == ToolCard::DetailSlots);

void setTextColor(QWidget *widget, const QColor &color)
{
    QPalette colors = widget->palette();
    colors.setColor(QPalette::WindowText, color);
    colors.setColor(QPalette::Text, color);
    widget->setPalette(colors);
}

QString todoMarker(const QString &status)
{
    if (status == "completed"_L1)
        return u"\u2713"_s;
    if (status == "in_progress"_L1)
        return u"\u25d0"_s;
    if (status == "cancelled"_L1)
        return u"\u2715"_s;
    return u"\u25cb"_s;
}

} // namespace

ToolCard::ToolCard(ToolCardContext context, QWidget *parent)
    : QFrame(parent)
    , m_context(std::move(context))
    , m_layout(new QVBoxLayout(this))
    , m_header(new ToolCardHeader(this))
    , m_details(new QWidget(this))
    , m_detailsLayout(new QVBoxLayout(m_details))
{
    if (!m_context.clock)
        m_context.clock = [] { return QDateTime::currentMSecsSinceEpoch(); };
    setObjectName(u"toolCard"_s);
    setFrameShape(QFrame::NoFrame);
    setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Maximum);
    m_layout->setContentsMargins(1, 1, 1, 1);
    m_layout->setSpacing(0);
    m_layout->addWidget(m_header);
    m_layout->addWidget(m_details);
    m_detailsLayout->setContentsMargins(10, 2, 10, 8);
    m_detailsLayout->setSpacing(6);
    m_details->hide();
    m_status = ToolStatus::of(m_part.state, now());
    m_header->setStatus(m_status);

    connect(m_header, &ToolCardHeader::toggleRequested, this, [this] {
        m_chosenByPerson = true;
        setExpanded(!m_expanded);
    });
    connect(m_header, &ToolCardHeader::expandRequested, this, [this](bool expanded) {
        m_chosenByPerson = true;
        setExpanded(expanded);
    });
    connect(m_header, &ToolCardHeader::openRequested, this, [this] {
        if (!m_body.childSessionID.isEmpty())
            Q_EMIT openSessionRequested(m_body.childSessionID);
    });
    connect(m_header->spinner(), &ToolSpinner::frameAdvanced, this, &ToolCard::refreshStatus);
    if (m_context.asks) {
        connect(m_context.asks.data(), &AskQueue::callChanged, this,
                [this](const QString &messageID, const QString &callID) {
                    if (!m_partID.isEmpty() && messageID == m_messageID && callID == m_part.callID)
                        present();
                });
    }
}

ToolCard::~ToolCard() = default;

qint64 ToolCard::now() const
{
    return m_context.clock();
}

void ToolCard::setPart(const Part &part)
{
    const ToolPart *tool = part.as<ToolPart>();
    if (!tool) {
        qCWarning(lcToolCard) << "a tool card was given a" << part.type() << "part" << part.id;
        return;
    }
    // A card given another call starts over, as a new card would.
    if (part.id != m_partID) {
        m_partID = part.id;
        m_chosenByPerson = false;
    }
    m_messageID = part.messageID;
    m_part = *tool;
    present();
}

void ToolCard::present()
{
    m_presentation = presentTool(m_part, m_context.projectDirectory);
    m_header->setIconName(m_presentation.iconName);
    m_header->setTitle(m_presentation.title);
    m_header->setSubtitle(m_presentation.subtitle);
    m_body = ToolBody::of(m_part, m_context.projectDirectory);
    m_header->setOpenVisible(!m_body.childSessionID.isEmpty());
    applyAsk();
    refreshStatus();
    m_header->spinner()->setSpinning(std::holds_alternative<ToolRunning>(m_part.state) && !m_askPanel);
    applyBody();
    applyExpansion();
    checkHeight();
}

void ToolCard::refreshStatus()
{
    const qint64 waited = m_context.asks ? m_context.asks->waitedFor(m_messageID, m_part.callID) : 0;
    const ToolStatus status = m_askPanel ? ToolStatus::waiting() : ToolStatus::of(m_part.state, now(), waited);
    if (status.kind == m_status.kind && status.text == m_status.text)
        return;
    const bool kindChanged = status.kind != m_status.kind;
    m_status = status;
    m_header->setStatus(status);
    if (kindChanged)
        update();
}

OutputView *ToolCard::ensureOutputView(OutputView *&view, const QString &name)
{
    if (!view) {
        view = new OutputView(m_details);
        view->setObjectName(name);
    }
    return view;
}

QLabel *ToolCard::ensureLabel(QLabel *&label, const QString &name)
{
    if (!label) {
        label = new QLabel(m_details);
        label->setObjectName(name);
        label->setWordWrap(true);
        label->setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::TextSelectableByKeyboard);
        label->setTextFormat(Qt::PlainText);
    }
    return label;
}

void ToolCard::applyBody()
{
    // Each detail widget is made the first time a state needs it, put in
    // its slot, and from then on only shown, hidden or updated.
    const auto place = [this](int slot, QWidget *widget, bool visible) {
        if (!m_slots.at(size_t(slot))) {
            m_slots.at(size_t(slot)) = widget;
            const auto before = std::count_if(m_slots.cbegin(), m_slots.cbegin() + slot,
                                              [](const QWidget *other) { return other != nullptr; });
            m_detailsLayout->insertWidget(int(before), widget);
        }
        widget->setVisible(visible);
    };

    if (!m_body.input.isEmpty() || m_input) {
        ensureOutputView(m_input, u"toolInput"_s)->setText(m_body.input);
        place(InputSlot, m_input, !m_body.input.isEmpty());
    }
    if (!m_body.diff.isEmpty() || m_diffSection) {
        applyDiff();
        place(DiffSlot, m_diffSection, !m_body.diff.isEmpty());
    }
    if (!m_body.todos.isEmpty() || m_todos) {
        ensureLabel(m_todos, u"toolTodos"_s)->setTextFormat(Qt::RichText);
        applyTodos();
        place(TodosSlot, m_todos, !m_body.todos.isEmpty());
    }
    if (!m_body.details.isEmpty() || m_detailsText) {
        if (ensureLabel(m_detailsText, u"toolDetails"_s)->text() != m_body.details)
            m_detailsText->setText(m_body.details);
        place(DetailsSlot, m_detailsText, !m_body.details.isEmpty());
    }
    if (!m_body.output.isEmpty() || m_output) {
        ensureOutputView(m_output, u"toolOutput"_s);
        m_output->setEnd(m_body.outputEnd == ToolBody::OutputEnd::Tail ? OutputView::End::Tail : OutputView::End::Head);
        m_output->setText(m_body.output);
        m_output->setFirstLineNumber(m_body.outputFirstLine);
        m_output->setLanguage(m_context.highlighter, m_body.outputLanguage);
        place(OutputSlot, m_output, !m_body.output.isEmpty());
    }
    const QString notes = m_body.notes.join(u'\n');
    if (!notes.isEmpty() || m_notes) {
        if (ensureLabel(m_notes, u"toolNotes"_s)->text() != notes) {
            m_notes->setText(notes);
            setTextColor(m_notes, ToolColors::muted(palette()));
        }
        place(NotesSlot, m_notes, !notes.isEmpty());
    }
    if (!m_body.error.isEmpty() || m_error) {
        applyError();
        place(ErrorSlot, m_error, !m_body.error.isEmpty());
    }
}

void ToolCard::applyDiff()
{
    if (!m_diffSection) {
        m_diffSection = new QWidget(m_details);
        auto *column = new QVBoxLayout(m_diffSection);
        column->setContentsMargins(0, 0, 0, 0);
        column->setSpacing(2);
        m_diffCaption = new QLabel(m_diffSection);
        m_diff = new DiffView(m_diffSection);
        m_diff->setObjectName(u"toolDiff"_s);
        m_diff->setProjectDirectory(m_context.projectDirectory);
        column->addWidget(m_diffCaption);
        column->addWidget(m_diff);
        setTextColor(m_diffCaption, ToolColors::muted(palette()));
    }
    m_diff->setUnifiedDiff(m_body.diff);
    // The header counts a finished change already; the caption says what
    // it cannot: that the change is only asked for, or spans files.
    const QString caption = m_body.diffProposed                      ? tr("Proposed change: %1").arg(m_diff->summaryText())
                            : m_diff->parsedDiff().files.size() > 1 ? m_diff->summaryText()
                                                                     : QString();
    if (m_diffCaption->text() != caption)
        m_diffCaption->setText(caption);
    m_diffCaption->setVisible(!caption.isEmpty());

    // A change made (not only asked for) can be reviewed with the
    // session's others, in the window's Changes panel.
    const bool linked = m_context.showChanges && !m_body.diffProposed
                        && std::holds_alternative<ToolCompleted>(m_part.state) && !changedFile().isEmpty();
    if (linked && !m_showChanges) {
        m_showChanges = new QLabel(m_diffSection);
        m_showChanges->setObjectName(u"toolShowChanges"_s);
        m_showChanges->setTextFormat(Qt::RichText);
        m_showChanges->setTextInteractionFlags(Qt::LinksAccessibleByMouse | Qt::LinksAccessibleByKeyboard);
        connect(m_showChanges, &QLabel::linkActivated, this, [this] {
            if (m_context.showChanges)
                m_context.showChanges(changedFile());
        });
        m_diffSection->layout()->addWidget(m_showChanges);
    }
    if (m_showChanges) {
        const QString link = tr("Show in Changes").toHtmlEscaped();
        m_showChanges->setText(u"<a href=\"changes\">%1</a>"_s.arg(link)); // i18n: markup around translated words
        m_showChanges->setVisible(linked);
    }
}

// The file an edit, a write or a multiedit changed, absolute; empty for
// other tools.
QString ToolCard::changedFile() const
{
    const QString path = m_part.input().value("filePath"_L1).toString();
    if (path.isEmpty())
        return {};
    return QDir::cleanPath(QDir(m_context.projectDirectory).absoluteFilePath(path));
}

bool ToolCard::isSmallFinishedEdit() const
{
    return std::holds_alternative<ToolCompleted>(m_part.state) && !m_body.diff.isEmpty() && !m_body.diffProposed
           && m_diff && !m_diff->isShowingSummary() && m_diff->parsedDiff().lines.size() <= SmallDiffRows;
}

void ToolCard::applyTodos()
{
    const QPalette &colors = palette();
    QString html = u"<table cellspacing=\"0\" cellpadding=\"1\">"_s;
    for (const ToolBody::TodoItem &todo : std::as_const(m_body.todos)) {
        const bool done = todo.status == "completed"_L1;
        const bool cancelled = todo.status == "cancelled"_L1;
        const QColor marker = done ? ToolColors::addedText(colors) : ToolColors::muted(colors);
        QString content = todo.content.toHtmlEscaped();
        if (cancelled)
            content = u"<s>"_s + content + u"</s>"_s;
        if (todo.status == "in_progress"_L1)
            content = u"<b>"_s + content + u"</b>"_s;
        const QColor text = done || cancelled ? ToolColors::muted(colors) : colors.color(QPalette::WindowText);
        html += u"<tr><td style=\"color:%1; padding-right:6px\">%2</td><td style=\"color:%3\">%4</td></tr>"_s.arg(
            marker.name(), todoMarker(todo.status), text.name(), content);
    }
    html += u"</table>"_s;
    if (m_todos->text() != html)
        m_todos->setText(html);
}

void ToolCard::applyError()
{
    ensureLabel(m_error, u"toolError"_s);
    const QString shown = m_status.kind == ToolStatus::Kind::Stopped ? tr("Stopped before it finished.") : m_body.error;
    if (m_error->text() != shown)
        m_error->setText(shown);
    setTextColor(m_error, m_status.kind == ToolStatus::Kind::Failed ? ToolColors::error(palette())
                                                                    : ToolColors::muted(palette()));
}

void ToolCard::applyExpansion()
{
    const bool hasDetails = !m_body.input.isEmpty() || !m_body.diff.isEmpty() || !m_body.todos.isEmpty()
                            || !m_body.details.isEmpty() || !m_body.output.isEmpty() || !m_body.notes.isEmpty()
                            || !m_body.error.isEmpty();
    m_header->setExpandable(hasDetails);
    if (!m_chosenByPerson) {
        const bool failed = m_status.kind == ToolStatus::Kind::Failed || m_status.kind == ToolStatus::Kind::Rejected;
        // While it asks, the ask says what would happen; the details wait.
        m_expanded = (m_part.tool == "bash"_L1 && !m_askPanel) || failed || isSmallFinishedEdit();
    }
    m_header->setExpanded(m_expanded);
    m_details->setVisible(m_expanded && hasDetails);
}

// The ask this call waits on, answered here: its panel comes and goes with it.
void ToolCard::applyAsk()
{
    const std::optional<AskQueue::Ask> ask =
        m_context.asks ? m_context.asks->askForCall(m_messageID, m_part.callID) : std::nullopt;
    if (ask && ask->id == m_askID && m_askPanel)
        return;
    if (m_askPanel) {
        // Perhaps inside its own button's click: deleted once that returns.
        m_askPanel->hide();
        m_askPanel->deleteLater();
        m_askPanel = nullptr;
        m_askID.clear();
    }
    if (!ask)
        return;
    m_askID = ask->id;
    QPointer<AskQueue> asks = m_context.asks;
    if (const auto *permission = std::get_if<PermissionRequest>(&ask->request)) {
        auto *panel = new PermissionAskPanel(*permission, this);
        connect(panel, &PermissionAskPanel::answered, this,
                [asks](const QString &id, PermissionReply reply, const QString &message, ApprovalScope scope) {
                    if (asks)
                        asks->answerPermission(id, reply, message, scope);
                });
        m_askPanel = panel;
    } else {
        auto *panel = new QuestionAskPanel(std::get<QuestionRequest>(ask->request), this);
        connect(panel, &QuestionAskPanel::answered, this,
                [asks](const QString &id, const QList<QStringList> &answers) {
                    if (asks)
                        asks->answerQuestion(id, answers);
                });
        connect(panel, &QuestionAskPanel::dismissed, this, [asks](const QString &id) {
            if (asks)
                asks->dismissQuestion(id);
        });
        m_askPanel = panel;
    }
    // Under the header, above the details: what the person has to answer.
    m_layout->insertWidget(1, m_askPanel);
}

void ToolCard::setExpanded(bool expanded)
{
    if (expanded == m_expanded)
        return;
    m_expanded = expanded;
    m_chosenByPerson = true;
    applyExpansion();
    m_lastHeight = -1;
    checkHeight();
}

void ToolCard::checkHeight()
{
    const int height = hasHeightForWidth() && width() > 0 ? heightForWidth(width()) : sizeHint().height();
    if (height == m_lastHeight)
        return;
    m_lastHeight = height;
    Q_EMIT heightChanged();
}

bool ToolCard::hasHeightForWidth() const
{
    return m_layout->hasHeightForWidth();
}

int ToolCard::heightForWidth(int width) const
{
    return m_layout->hasHeightForWidth() ? m_layout->totalHeightForWidth(width) : sizeHint().height();
}

bool ToolCard::event(QEvent *event)
{
    const bool handled = QFrame::event(event);
    // Children that grew (more output, a diff laid out) come back here
    // as a request to lay the card out again.
    if (event->type() == QEvent::LayoutRequest)
        checkHeight();
    return handled;
}

void ToolCard::paintEvent(QPaintEvent *event)
{
    Q_UNUSED(event);
    QPainter painter(this);
    painter.setRenderHint(QPainter::Antialiasing);
    const QPalette &colors = palette();
    QColor border = ToolColors::border(colors);
    if (m_status.kind == ToolStatus::Kind::Failed)
        border = ToolColors::mix(border, ToolColors::error(colors), 0.5);
    else if (m_status.kind == ToolStatus::Kind::Waiting)
        border = ToolColors::mix(border, ToolColors::waiting(colors), 0.7);
    painter.setPen(QPen(border, 1));
    painter.setBrush(ToolColors::cardBackground(colors));
    painter.drawRoundedRect(QRectF(rect()).adjusted(0.5, 0.5, -0.5, -0.5), Radius, Radius);
}

void ToolCard::changeEvent(QEvent *event)
{
    QFrame::changeEvent(event);
    if (event->type() == QEvent::PaletteChange)
        restyle();
    else if (event->type() == QEvent::LanguageChange && !m_partID.isEmpty())
        present();
}

void ToolCard::restyle()
{
    if (m_notes)
        setTextColor(m_notes, ToolColors::muted(palette()));
    if (m_diffCaption)
        setTextColor(m_diffCaption, ToolColors::muted(palette()));
    if (m_todos)
        applyTodos();
    if (m_error)
        applyError();
}

} // namespace qcode
