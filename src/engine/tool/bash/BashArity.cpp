#include "BashArity.h"

#include <QHash>

namespace qcode {

namespace {

// OpenCode's BashArity table (1.2): how many words name a command. Only
// prefixes whose arity differs from their shorter prefix are listed.
const QHash<QString, int> &arityTable()
{
    static const QHash<QString, int> table = [] {
        QHash<QString, int> t;
        const char *const one[] = {
            "cat",   "cd",      "chmod",  "chown", "cp",     "echo",  "env",   "export", "grep",  "ionice",
            "kill",  "killall", "ln",     "ls",    "mkdir",  "mv",    "nice",  "nohup",  "ps",    "pwd",
            "rm",    "rmdir",   "sleep",  "source", "stdbuf", "sudo", "tail",  "time",   "timeout", "touch",
            "unset", "watch",   "which",  "xargs",
        };
        const char *const two[] = {
            "bazel", "brew",      "bun",       "cargo",   "cdk",     "cf",      "cmake",    "composer", "consul",
            "crictl", "deno",     "docker",    "eksctl",  "firebase", "flyctl", "git",      "go",       "gradle",
            "helm",  "heroku",    "hugo",      "ip",      "kind",    "kubectl", "kustomize", "make",    "mc",
            "minikube", "mongosh", "mysql",    "mvn",     "ng",      "npm",     "nvm",      "nx",       "openssl",
            "pip",   "pipenv",    "pnpm",      "poetry",  "podman",  "psql",    "pulumi",   "pyenv",    "python",
            "rake",  "rbenv",     "redis-cli", "rustup",  "serverless", "skaffold", "sls",  "sst",      "swift",
            "systemctl", "terraform", "tmux",  "turbo",   "ufw",     "vault",   "vercel",   "volta",    "wp",
            "yarn",
        };
        const char *const three[] = {
            "aws",            "az",              "bun run",          "bun x",           "cargo add",
            "cargo run",      "consul kv",       "deno task",        "doctl",           "docker builder",
            "docker compose", "docker container", "docker image",    "docker network",  "docker volume",
            "eksctl create",  "gcloud",          "gh",               "git config",      "git remote",
            "git stash",      "ip addr",         "ip link",          "ip netns",        "ip route",
            "kind create",    "kubectl kustomize", "kubectl rollout", "mc admin",       "npm exec",
            "npm init",       "npm run",         "npm view",         "openssl req",     "openssl x509",
            "pnpm dlx",       "pnpm exec",       "pnpm run",         "podman container", "podman image",
            "pulumi stack",   "sfdx",            "terraform workspace", "vault auth",   "vault kv",
            "yarn dlx",       "yarn run",
        };
        for (const char *name : one)
            t.insert(QLatin1String(name), 1);
        for (const char *name : two)
            t.insert(QLatin1String(name), 2);
        for (const char *name : three)
            t.insert(QLatin1String(name), 3);
        return t;
    }();
    return table;
}

} // namespace

QStringList BashArity::prefix(const QStringList &tokens)
{
    const QHash<QString, int> &table = arityTable();
    for (qsizetype length = tokens.size(); length > 0; --length) {
        const auto found = table.constFind(tokens.mid(0, length).join(u' '));
        if (found != table.cend())
            return tokens.mid(0, *found);
    }
    return tokens.mid(0, 1);
}

QString BashArity::alwaysPattern(const QStringList &tokens)
{
    return prefix(tokens).join(u' ') + QStringLiteral(" *");
}

} // namespace qcode
