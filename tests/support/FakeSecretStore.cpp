#include "FakeSecretStore.h"

#include <QCoro/QCoroTimer>
#include <QTimer>

using namespace Qt::StringLiterals;

namespace qcode::test {
namespace {

QCoro::Task<> nextTurn()
{
    QTimer timer;
    timer.setSingleShot(true);
    timer.start(0);
    co_await timer;
}

} // namespace

QCoro::Task<Result<std::optional<QString>>> FakeSecretStore::readKey(QString providerID)
{
    co_await nextTurn();
    ++reads;
    if (failure)
        co_return Error{*failure};
    if (locked.contains(providerID))
        co_return Error{u"The keychain is locked."_s};
    co_return keys.contains(providerID) ? std::optional<QString>(keys.value(providerID)) : std::nullopt;
}

QCoro::Task<Result<void>> FakeSecretStore::writeKey(QString providerID, QString key)
{
    co_await nextTurn();
    keys.insert(providerID, key);
    co_return Result<void>();
}

QCoro::Task<Result<void>> FakeSecretStore::deleteKey(QString providerID)
{
    co_await nextTurn();
    keys.remove(providerID);
    co_return Result<void>();
}

} // namespace qcode::test
