#include "AttachmentChip.h"

#include <QBuffer>
#include <QDir>
#include <QEvent>
#include <QFileIconProvider>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QImageReader>
#include <QKeyEvent>
#include <QLabel>
#include <QStyle>
#include <QToolButton>
#include <QtConcurrent/QtConcurrentRun>

using namespace Qt::StringLiterals;

namespace qcode {
namespace {

// Reads only as much of the image as the thumbnail needs where the format
// allows it (JPEG scales while decoding).
QImage thumbnail(const QString &path, const QByteArray &data, int extent)
{
    QBuffer buffer;
    QImageReader reader;
    if (path.isEmpty()) {
        buffer.setData(data);
        buffer.open(QIODevice::ReadOnly);
        reader.setDevice(&buffer);
    } else {
        reader.setFileName(path);
    }
    reader.setAutoTransform(true);
    const QSize size = reader.size();
    if (size.isValid() && (size.width() > extent || size.height() > extent))
        reader.setScaledSize(size.scaled(extent, extent, Qt::KeepAspectRatio));
    QImage image = reader.read();
    if (!image.isNull() && (image.width() > extent || image.height() > extent))
        image = image.scaled(extent, extent, Qt::KeepAspectRatio, Qt::SmoothTransformation);
    return image;
}

} // namespace

AttachmentChip::AttachmentChip(const PromptAttachment &attachment, QWidget *parent)
    : QFrame(parent), m_attachment(attachment)
{
    setObjectName(u"attachmentChip"_s);
    setFrameShape(QFrame::StyledPanel);
    auto *layout = new QHBoxLayout(this);
    const int margin = style()->pixelMetric(QStyle::PM_LayoutHorizontalSpacing) / 2;
    layout->setContentsMargins(margin + 2, margin, margin, margin);
    layout->setSpacing(margin + 2);

    m_icon = new QLabel(this);
    m_icon->setFixedSize(iconExtent(), iconExtent());
    m_icon->setAlignment(Qt::AlignCenter);
    QFileIconProvider icons;
    const QIcon icon = attachment.kind == PromptAttachment::Kind::Folder ? icons.icon(QFileIconProvider::Folder)
        : attachment.path.isEmpty()                                      ? icons.icon(QFileIconProvider::File)
                                                                          : icons.icon(QFileInfo(attachment.path));
    m_icon->setPixmap(icon.pixmap(QSize(iconExtent(), iconExtent()), devicePixelRatioF()));
    layout->addWidget(m_icon);

    auto *name = new QLabel(this);
    const int nameWidth = fontMetrics().averageCharWidth() * 28;
    name->setText(fontMetrics().elidedText(attachment.name, Qt::ElideMiddle, nameWidth));
    layout->addWidget(name);
    setToolTip(attachment.path.isEmpty() ? attachment.name : QDir::toNativeSeparators(attachment.path));

    m_remove = new QToolButton(this);
    m_remove->setObjectName(u"removeAttachment"_s);
    m_remove->setText(u"×"_s); // i18n: a symbol, not a word: the same in every language
    m_remove->setAutoRaise(true);
    m_remove->setFocusPolicy(Qt::StrongFocus);
    layout->addWidget(m_remove);
    retranslateUi();
    connect(m_remove, &QToolButton::clicked, this, &AttachmentChip::removeRequested);

    if (attachment.kind == PromptAttachment::Kind::Image)
        startThumbnail();
}

// The reader works on copies, so a chip removed before its thumbnail is
// ready just never hears the answer.
AttachmentChip::~AttachmentChip() = default;

int AttachmentChip::iconExtent() const
{
    return style()->pixelMetric(QStyle::PM_SmallIconSize) * 3 / 2;
}

void AttachmentChip::retranslateUi()
{
    setAccessibleName(tr("Attachment: %1").arg(m_attachment.name));
    m_remove->setToolTip(tr("Remove %1 (Delete)").arg(m_attachment.name));
    m_remove->setAccessibleName(tr("Remove %1").arg(m_attachment.name));
}

void AttachmentChip::changeEvent(QEvent *event)
{
    QFrame::changeEvent(event);
    if (event->type() == QEvent::LanguageChange)
        retranslateUi();
}

void AttachmentChip::startThumbnail()
{
    const qreal ratio = devicePixelRatioF();
    const int extent = int(std::ceil(iconExtent() * ratio));
    connect(&m_thumbnail, &QFutureWatcher<QImage>::finished, this, [this, ratio] {
        QImage image = m_thumbnail.result();
        if (image.isNull())
            return;
        QPixmap pixmap = QPixmap::fromImage(image);
        pixmap.setDevicePixelRatio(ratio);
        m_icon->setPixmap(pixmap);
        m_hasThumbnail = true;
    });
    m_thumbnail.setFuture(QtConcurrent::run(thumbnail, m_attachment.path, m_attachment.data, extent));
}

void AttachmentChip::keyPressEvent(QKeyEvent *event)
{
    if (event->key() == Qt::Key_Delete || event->key() == Qt::Key_Backspace) {
        Q_EMIT removeRequested();
        return;
    }
    QFrame::keyPressEvent(event);
}

} // namespace qcode
