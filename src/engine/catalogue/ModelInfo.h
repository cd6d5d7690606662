#pragma once

#include <QCoreApplication>
#include <QJsonObject>
#include <QString>
#include <QStringList>

#include "ModelCost.h"
#include "model/Result.h"

namespace qcode {

// What qcode knows about one model of one provider: limits, prices and
// capabilities. The JSON shape is models.dev's, which is also the shape of
// a `models` entry in opencode.json, so one parser serves the bundled
// catalogue and the user's config.
struct ModelInfo {
    Q_DECLARE_TR_FUNCTIONS(ModelInfo)

public:
    struct Limits {
        qint64 context = 0; // 0: unknown
        qint64 input = 0;   // 0: bounded by context only
        qint64 output = 0;  // 0: unknown
        bool operator==(const Limits &) const = default;
    };
    struct Capabilities {
        bool tools = true;
        bool reasoning = false;
        bool temperature = true;
        bool attachment = false;
        bool imageInput = false;
        bool pdfInput = false;
        bool operator==(const Capabilities &) const = default;
    };

    QString id;         // the key in the provider's `models`
    QString apiId;      // what is sent to the API; config `id` overrides it
    QString providerID;
    QString name;
    QString family;
    QString releaseDate;
    QString status;     // "", "alpha", "beta" or "deprecated"
    QString npm;        // a per-model SDK package (config `provider.npm`); empty: the provider's
    Limits limits;
    ModelCost cost;
    Capabilities capabilities;
    QJsonObject options;
    QJsonObject headers;
    QJsonObject variants;

    // Reads `json` over `base` (a field absent from `json` keeps the base's
    // value), so a config entry can change one price of a catalogue model.
    // Type errors name the field: "cost.input must be a number ≥ 0".
    static Result<ModelInfo> fromJson(const QString &providerID, const QString &id, const QJsonObject &json,
                                      const ModelInfo &base);
    static Result<ModelInfo> fromJson(const QString &providerID, const QString &id, const QJsonObject &json);
    QJsonObject toJson() const;

    bool operator==(const ModelInfo &) const = default;
};

} // namespace qcode
