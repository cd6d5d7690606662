#pragma once

namespace qcode {

// std::visit over several lambdas: Overloaded{[](const A &) {…}, [](const B &) {…}}.
template <class... Ts>
struct Overloaded : Ts... {
    using Ts::operator()...;
};
// Clang before 17 (and Apple's) needs the guide that C++20 makes implicit.
template <class... Ts>
Overloaded(Ts...) -> Overloaded<Ts...>;

} // namespace qcode
