#pragma once

#include <QString>

#include <chrono>
#include <functional>

#include <QCoro/QCoroTask>
#include <qt6keychain/keychain.h>

namespace qcode {

// What one QtKeychain job ended with; `answered` is false when the
// keychain did not answer in time.
struct KeychainOutcome {
    bool answered = false;
    QKeychain::Error error = QKeychain::NoError;
    QString errorString;
    QString text; // a read's secret
};

// Runs the job `make` creates, for a caller on any thread. QtKeychain
// queues every job of the process in one executor that is not safe to
// use from two threads (jobs started on the engine thread while the
// settings window, or `qcode run`'s own check, used the main thread
// crashed inside it), so every job is made, started and finished on the
// application's main thread, and only its outcome travels back to the
// asking thread. The main thread must run an event loop.
// `make` is copied before the first suspension, so a caller's named
// function may go out of scope while the job runs.
QCoro::Task<KeychainOutcome> runKeychainJob(const std::function<QKeychain::Job *()> &make,
                                            std::chrono::milliseconds timeout);

} // namespace qcode
