#pragma once

#include <QFutureWatcher>
#include <QObject>
#include <QtConcurrent>

#include <type_traits>
#include <utility>

namespace qcode {

// Runs `work` on the thread pool and hands its result to `done` on
// `context`'s thread — unless `context` is gone by then, in which case the
// result is dropped. (QFuture::then(context, …) asserts on Qt 6.4 when the
// context dies first; a watcher owned by the context dies with it.)
//
//     runInBackground(this, [path] { return decode(path); },
//                     [this](const QImage &image) { show(image); });
template <typename Work, typename Done>
void runInBackground(QObject *context, Work &&work, Done &&done)
{
    using Value = std::invoke_result_t<Work>;
    auto *watcher = new QFutureWatcher<Value>(context);
    QObject::connect(watcher, &QFutureWatcherBase::finished, context,
                     [watcher, done = std::forward<Done>(done)]() mutable {
                         watcher->deleteLater();
                         done(watcher->result());
                     });
    watcher->setFuture(QtConcurrent::run(std::forward<Work>(work)));
}

} // namespace qcode
