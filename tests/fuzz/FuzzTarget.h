#pragma once

#include <cstddef>
#include <cstdint>

// Every fuzz target defines libFuzzer's entry point. Built with clang and
// -fsanitize=fuzzer (the `fuzz` preset) it is a real libFuzzer binary;
// otherwise FuzzDriver.cpp supplies a main that replays the seed corpus and
// a fixed number of deterministic mutations, so every test run fuzzes a
// little with any compiler.
extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

// A broken invariant is a crash on purpose: that is what a fuzzer reports.
#define FUZZ_CHECK(condition)                                                                                          \
    do {                                                                                                               \
        if (!(condition)) {                                                                                            \
            __builtin_trap();                                                                                          \
        }                                                                                                              \
    } while (false)
