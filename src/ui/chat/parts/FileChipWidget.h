#pragma once

#include "ui/chat/PartWidget.h"

class QLabel;
class QToolButton;

namespace qcode {

// A file the person attached (or a tool returned): its name and type, and
// for an image a thumbnail, decoded off the GUI thread. A local file opens
// in the system's viewer on click.
class FileChipWidget : public PartWidget
{
    Q_OBJECT

public:
    static constexpr int ThumbnailSize = 160;

    explicit FileChipWidget(QWidget *parent = nullptr);

    void setPart(const Part &part, const Message &message) override;
    QString markdown() const override;
    QString name() const;
    bool hasThumbnail() const;

Q_SIGNALS:
    void thumbnailReady();

protected:
    void changeEvent(QEvent *event) override;

private:
    void renderChip();
    void loadThumbnail(const QString &url);

    QString m_url;
    QString m_givenName; // the part's own; may be empty
    QString m_name;      // as shown
    QString m_mime;
    QToolButton *m_chip = nullptr;
    QLabel *m_thumbnail = nullptr;
};

} // namespace qcode
