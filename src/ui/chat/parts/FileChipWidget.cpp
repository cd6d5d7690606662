#include "FileChipWidget.h"

#include <QDesktopServices>
#include <QEvent>
#include <QFileInfo>
#include <QImage>
#include <QImageReader>
#include <QLabel>
#include <QPixmap>
#include <QStyle>
#include <QToolButton>
#include <QUrl>
#include <QVBoxLayout>
#include <QtConcurrent>

#include "engine/message/DataUrl.h"
#include "ui/support/Background.h"

using namespace Qt::StringLiterals;

namespace qcode {
namespace {

// Decodes and scales an image from a data: or file: URL; a null image when
// it is not one.
QImage thumbnailOf(const QString &url, int size)
{
    QImage image;
    if (url.startsWith("data:"_L1)) {
        const Result<QByteArray> bytes = DataUrl::decode(url);
        if (bytes)
            image.loadFromData(*bytes);
    } else {
        QImageReader reader(QUrl(url).toLocalFile());
        reader.setAutoTransform(true);
        const QSize full = reader.size();
        if (full.isValid())
            reader.setScaledSize(full.scaled(size, size, Qt::KeepAspectRatio));
        image = reader.read();
    }
    if (image.isNull())
        return image;
    return image.width() > size || image.height() > size
               ? image.scaled(size, size, Qt::KeepAspectRatio, Qt::SmoothTransformation)
               : image;
}

} // namespace

FileChipWidget::FileChipWidget(QWidget *parent) : PartWidget(parent)
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 2, 0, 2);
    layout->setSpacing(4);
    m_thumbnail = new QLabel(this);
    m_thumbnail->setObjectName(u"thumbnail"_s);
    m_thumbnail->hide();
    layout->addWidget(m_thumbnail, 0, Qt::AlignLeft);
    m_chip = new QToolButton(this);
    m_chip->setObjectName(u"fileChip"_s);
    m_chip->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    m_chip->setAutoRaise(false);
    layout->addWidget(m_chip, 0, Qt::AlignLeft);
    connect(m_chip, &QToolButton::clicked, this, [this] {
        const QUrl url(m_url);
        if (url.isLocalFile() && QFileInfo::exists(url.toLocalFile()))
            QDesktopServices::openUrl(url);
    });
}

void FileChipWidget::setPart(const Part &part, const Message &)
{
    const FilePart *file = part.as<FilePart>();
    if (!file || file->url == m_url)
        return;
    m_url = file->url;
    m_mime = file->mime;
    const QUrl url(file->url);
    m_givenName = file->filename.value_or(url.isLocalFile() ? QFileInfo(url.toLocalFile()).fileName() : QString());
    const bool folder = m_mime == "application/x-directory"_L1;
    m_chip->setIcon(style()->standardIcon(folder ? QStyle::SP_DirIcon : QStyle::SP_FileIcon));
    renderChip();
    if (m_mime.startsWith("image/"_L1))
        loadThumbnail(file->url);
}

void FileChipWidget::renderChip()
{
    const QUrl url(m_url);
    m_name = m_givenName.isEmpty() ? tr("Attachment") : m_givenName;
    m_chip->setText(m_name);
    m_chip->setToolTip(url.isLocalFile() ? tr("%1 (%2)\nClick to open").arg(url.toLocalFile(), m_mime)
                                         : tr("%1 (%2)").arg(m_name, m_mime));
}

void FileChipWidget::changeEvent(QEvent *event)
{
    PartWidget::changeEvent(event);
    if (event->type() == QEvent::LanguageChange && !m_url.isEmpty())
        renderChip();
}

QString FileChipWidget::markdown() const
{
    const QUrl url(m_url);
    return url.isLocalFile() ? u"[%1](%2)"_s.arg(m_name, url.toString()) : u"[%1]"_s.arg(m_name);
}

QString FileChipWidget::name() const
{
    return m_name;
}

bool FileChipWidget::hasThumbnail() const
{
    return !m_thumbnail->pixmap().isNull();
}

void FileChipWidget::loadThumbnail(const QString &url)
{
    // Decoded at the screen's pixel density, so HiDPI thumbnails are sharp.
    const qreal ratio = devicePixelRatioF();
    const int size = int(ThumbnailSize * ratio);
    runInBackground(this, [url, size] { return thumbnailOf(url, size); }, [this, url, ratio](const QImage &image) {
        if (url != m_url || image.isNull())
            return;
        QPixmap pixmap = QPixmap::fromImage(image);
        pixmap.setDevicePixelRatio(ratio);
        m_thumbnail->setPixmap(pixmap);
        m_thumbnail->show();
        Q_EMIT thumbnailReady();
    });
}

} // namespace qcode
