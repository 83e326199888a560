#pragma once
// Compile-time capacities of the vehicle model: every per-wheel and per-axle array is sized by
// these, so the RT path never allocates (DESIGN.md §5).

#include <cstddef>

namespace hil::models {

inline constexpr std::size_t kMaxAxles = 4;
inline constexpr std::size_t kMaxWheels = 2 * kMaxAxles;  ///< two wheels per axle

}  // namespace hil::models
