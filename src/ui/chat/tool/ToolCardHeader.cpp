#include "ToolCardHeader.h"

#include <QEvent>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QPainter>
#include <QStyle>
#include <QStyleOption>
#include <QToolButton>

#include "ToolColors.h"
#include "ToolIconEngine.h"
#include "ToolSpinner.h"
#include "ToolTitleLabel.h"

using namespace Qt::StringLiterals;

namespace qcode {

namespace {

constexpr int ChevronWidth = 14;
constexpr int IconSize = 16;

} // namespace

ToolCardHeader::ToolCardHeader(QWidget *parent)
    : QWidget(parent)
    , m_icon(new QWidget(this))
    , m_title(new ToolTitleLabel(this))
    , m_subtitle(new ToolTitleLabel(this))
    , m_spinner(new ToolSpinner(this))
    , m_statusLabel(new QLabel(this))
    , m_open(new QToolButton(this))
{
    setObjectName(u"toolHeader"_s);
    setFocusPolicy(Qt::StrongFocus);
    setCursor(Qt::PointingHandCursor);
    setAttribute(Qt::WA_Hover);
    m_icon->setFixedSize(IconSize, IconSize);
    m_title->setObjectName(u"toolTitle"_s);
    m_subtitle->setObjectName(u"toolSubtitle"_s);
    m_subtitle->setMuted(true);
    m_subtitle->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Fixed);
    m_statusLabel->setObjectName(u"toolStatus"_s);
    m_spinner->hide();
    m_open->setObjectName(u"toolOpenSession"_s);
    retranslateUi();
    m_open->setAutoRaise(true);
    m_open->setCursor(Qt::ArrowCursor);
    m_open->hide();
    connect(m_open, &QToolButton::clicked, this, &ToolCardHeader::openRequested);

    auto *row = new QHBoxLayout(this);
    row->setContentsMargins(ChevronWidth + 4, 4, 6, 4);
    row->setSpacing(6);
    row->addWidget(m_icon);
    row->addWidget(m_title, 0);
    row->addWidget(m_subtitle, 1);
    row->addWidget(m_spinner);
    row->addWidget(m_statusLabel);
    row->addWidget(m_open);
    updateStatusColor();
}

void ToolCardHeader::setIconName(const QString &name)
{
    if (name == m_iconName)
        return;
    m_iconName = name;
    updateIcon();
}

void ToolCardHeader::setTitle(const QString &title)
{
    m_title->setText(title);
    updateDescription();
}

void ToolCardHeader::setSubtitle(const QString &subtitle)
{
    // Shown even when empty: it takes the row's spare width.
    m_subtitle->setText(subtitle);
}

void ToolCardHeader::setStatus(const ToolStatus &status)
{
    const bool kindChanged = status.kind != m_status.kind;
    m_status = status;
    if (m_statusLabel->text() != status.text)
        m_statusLabel->setText(status.text);
    if (kindChanged)
        updateStatusColor();
    updateDescription();
}

void ToolCardHeader::setExpanded(bool expanded)
{
    if (expanded == m_expanded)
        return;
    m_expanded = expanded;
    update();
}

void ToolCardHeader::setExpandable(bool expandable)
{
    if (expandable == m_expandable)
        return;
    m_expandable = expandable;
    update();
}

void ToolCardHeader::setOpenVisible(bool visible)
{
    m_open->setVisible(visible);
}

void ToolCardHeader::updateIcon()
{
    m_iconImage = ToolIconEngine::icon(m_iconName);
    update(m_icon->geometry());
}

void ToolCardHeader::updateStatusColor()
{
    QPalette colors = m_statusLabel->palette();
    colors.setColor(QPalette::WindowText, m_status.kind == ToolStatus::Kind::Failed    ? ToolColors::error(palette())
                                          : m_status.kind == ToolStatus::Kind::Waiting ? ToolColors::waiting(palette())
                                                                                        : ToolColors::muted(palette()));
    m_statusLabel->setPalette(colors);
}

void ToolCardHeader::updateDescription()
{
    setAccessibleName(tr("%1, %2", "a tool call's title, then its status").arg(m_title->text(), m_status.text));
}

void ToolCardHeader::paintEvent(QPaintEvent *event)
{
    Q_UNUSED(event);
    QPainter painter(this);
    if (underMouse())
        painter.fillRect(rect(), ToolColors::hover(palette()));
    // Painted here rather than held as a pixmap: always at the screen's
    // pixel ratio and in the palette of the moment.
    m_iconImage.paint(&painter, m_icon->geometry());
    QStyleOption option;
    option.initFrom(this);
    if (m_expandable) {
        option.rect = QRect(4, (height() - ChevronWidth) / 2, ChevronWidth - 2, ChevronWidth);
        option.palette.setColor(QPalette::ButtonText, ToolColors::muted(palette()));
        option.palette.setColor(QPalette::WindowText, ToolColors::muted(palette()));
        style()->drawPrimitive(m_expanded ? QStyle::PE_IndicatorArrowDown : QStyle::PE_IndicatorArrowRight, &option,
                               &painter, this);
    }
    if (hasFocus()) {
        QStyleOptionFocusRect focus;
        focus.initFrom(this);
        focus.rect = rect().adjusted(1, 1, -1, -1);
        style()->drawPrimitive(QStyle::PE_FrameFocusRect, &focus, &painter, this);
    }
}

void ToolCardHeader::mousePressEvent(QMouseEvent *event)
{
    m_pressed = event->button() == Qt::LeftButton;
    QWidget::mousePressEvent(event);
}

void ToolCardHeader::mouseReleaseEvent(QMouseEvent *event)
{
    const bool click = m_pressed && event->button() == Qt::LeftButton && rect().contains(event->position().toPoint());
    m_pressed = false;
    if (click)
        Q_EMIT toggleRequested();
    QWidget::mouseReleaseEvent(event);
}

void ToolCardHeader::keyPressEvent(QKeyEvent *event)
{
    switch (event->key()) {
    case Qt::Key_Space:
    case Qt::Key_Return:
    case Qt::Key_Enter:
        Q_EMIT toggleRequested();
        return;
    case Qt::Key_Right:
        Q_EMIT expandRequested(true);
        return;
    case Qt::Key_Left:
        Q_EMIT expandRequested(false);
        return;
    default:
        QWidget::keyPressEvent(event);
    }
}

void ToolCardHeader::enterEvent(QEnterEvent *event)
{
    QWidget::enterEvent(event);
    update();
}

void ToolCardHeader::leaveEvent(QEvent *event)
{
    QWidget::leaveEvent(event);
    update();
}

void ToolCardHeader::retranslateUi()
{
    setAccessibleDescription(tr("Press Space to show or hide the details"));
    m_open->setText(tr("Open"));
    m_open->setToolTip(tr("Open the subagent's session"));
}

void ToolCardHeader::changeEvent(QEvent *event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::PaletteChange)
        updateStatusColor();
    else if (event->type() == QEvent::LanguageChange)
        retranslateUi();
}

} // namespace qcode
