#pragma once

#include <QGroupBox>

class QFormLayout;
class QLabel;
class QLineEdit;
class QPushButton;

namespace qcode {

class AppSettings;
class InlineMessage;

// Settings › General › Network: a proxy for every request, overriding the
// environment's and the system's, and a file of extra certificate
// authorities (AppSettings; NetworkSetup applies both from the next start).
// Each is saved when its field is left, if it can be used.
class NetworkBox : public QGroupBox
{
    Q_OBJECT

public:
    explicit NetworkBox(AppSettings *settings, QWidget *parent = nullptr);

    void retranslateUi();

private:
    void saveProxy();
    void saveCertificateFile();
    void chooseCertificateFile();

    AppSettings *m_settings = nullptr;
    QFormLayout *m_form = nullptr;
    QLineEdit *m_proxy = nullptr;
    QLineEdit *m_certificateFile = nullptr;
    QPushButton *m_browse = nullptr;
    QLabel *m_note = nullptr;
    InlineMessage *m_message = nullptr;
};

} // namespace qcode
