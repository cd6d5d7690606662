#include "RunSandbox.h"

#include <QDir>
#include <QJsonDocument>

using namespace Qt::StringLiterals;

namespace qcode::test {

namespace {

QJsonObject provider(const QString &name, const QUrl &base, const QString &model)
{
    const QJsonObject limit{{u"context"_s, 200000}, {u"output"_s, 8000}};
    return QJsonObject{
        {u"npm"_s, u"@ai-sdk/openai-compatible"_s},
        {u"name"_s, name},
        {u"options"_s, QJsonObject{{u"baseURL"_s, QString(base.toString() + u"/v1"_s)}, {u"apiKey"_s, u"test-key"_s}}},
        {u"models"_s, QJsonObject{{model, QJsonObject{{u"name"_s, model}, {u"tool_call"_s, true}, {u"limit"_s, limit}}}}},
    };
}

} // namespace

RunSandbox::RunSandbox()
{
    m_valid = true;
    for (const QString &folder : {u"home"_s, u"config/opencode"_s, u"data"_s, u"cache"_s, u"state"_s, u"project"_s})
        m_valid = m_valid && QDir().mkpath(m_tree.path(folder));
}

bool RunSandbox::writeConfig(const QUrl &providerBase, const QUrl &titlesBase, const QJsonObject &extra) const
{
    QJsonObject config{
        {u"$schema"_s, u"https://opencode.ai/config.json"_s},
        {u"autoupdate"_s, false},
        {u"share"_s, u"disabled"_s},
        {u"model"_s, u"fake/fake-model"_s},
        {u"small_model"_s, u"titles/title-model"_s},
        {u"provider"_s, QJsonObject{{u"fake"_s, provider(u"Fake"_s, providerBase, u"fake-model"_s)},
                                    {u"titles"_s, provider(u"Titles"_s, titlesBase, u"title-model"_s)}}},
    };
    for (auto it = extra.begin(); it != extra.end(); ++it)
        config.insert(it.key(), it.value());
    return m_tree.write(u"config/opencode/opencode.json"_s, QJsonDocument(config).toJson());
}

bool RunSandbox::writeProjectFile(const QString &relative, const QByteArray &text) const
{
    return m_tree.write(u"project/"_s + relative, text);
}

QProcessEnvironment RunSandbox::environment() const
{
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    for (const QString &name : {u"QCODE_DATA_DIR"_s, u"QCODE_CONFIG"_s, u"OPENCODE_CONFIG"_s, u"OPENCODE_CONFIG_DIR"_s,
                                u"OPENCODE_CONFIG_CONTENT"_s, u"OPENCODE_PERMISSION"_s, u"XDG_CONFIG_DIRS"_s,
                                u"XDG_DATA_DIRS"_s, u"QT_LOGGING_RULES"_s})
        env.remove(name);
    env.insert(u"HOME"_s, m_tree.path(u"home"_s));
    env.insert(u"XDG_CONFIG_HOME"_s, m_tree.path(u"config"_s));
    env.insert(u"XDG_DATA_HOME"_s, m_tree.path(u"data"_s));
    env.insert(u"XDG_CACHE_HOME"_s, m_tree.path(u"cache"_s));
    env.insert(u"XDG_STATE_HOME"_s, m_tree.path(u"state"_s));
    // A display is not needed: make sure none is used.
    env.remove(u"DISPLAY"_s);
    env.remove(u"WAYLAND_DISPLAY"_s);
    env.remove(u"QT_QPA_PLATFORM"_s);
    return env;
}

} // namespace qcode::test
