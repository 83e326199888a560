#pragma once
// Two doubles computed as one: the models' per-wheel arithmetic for a pair of wheels in one
// SSE2 register (GCC/Clang vector extension). Each lane gets exactly the IEEE operation a
// scalar would (+ − × ÷ and √ are correctly rounded either way), and the helpers below
// choose as their std:: namesakes do (std::max(a, b) is `a < b ? b : a`, NaN included), so
// code written lane-wise in the scalar's order gives the scalar's bits. Pure: any thread.

#include <bit>
#include <cmath>
#include <cstdint>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace hil::lanes {

/// Lane 0 and lane 1.
using L2 = double __attribute__((vector_size(16)));
/// A comparison's result per lane: all ones (true) or zero.
using Mask2 = std::int64_t __attribute__((vector_size(16)));

[[nodiscard]] inline L2 make(double lane0, double lane1) noexcept { return L2{lane0, lane1}; }
[[nodiscard]] inline L2 splat(double v) noexcept { return L2{v, v}; }

/// mask ? a : b, per lane (bitwise: no arithmetic on the lane not chosen).
[[nodiscard]] inline L2 select(Mask2 mask, L2 a, L2 b) noexcept {
  return std::bit_cast<L2>((mask & std::bit_cast<Mask2>(a)) | (~mask & std::bit_cast<Mask2>(b)));
}

/// std::abs: the sign bit cleared.
[[nodiscard]] inline L2 abs(L2 v) noexcept {
  return std::bit_cast<L2>(std::bit_cast<Mask2>(v) & (Mask2{} + INT64_MAX));
}
/// std::max(a, b): `a < b ? b : a`.
[[nodiscard]] inline L2 max(L2 a, L2 b) noexcept { return select(a < b, b, a); }
/// std::min(a, b): `b < a ? b : a`.
[[nodiscard]] inline L2 min(L2 a, L2 b) noexcept { return select(b < a, b, a); }
/// std::clamp(v, lo, hi): `v < lo ? lo : hi < v ? hi : v`.
[[nodiscard]] inline L2 clamp(L2 v, L2 lo, L2 hi) noexcept {
  return select(v < lo, lo, select(hi < v, hi, v));
}

[[nodiscard]] inline L2 sqrt(L2 v) noexcept {
#if defined(__SSE2__)
  return _mm_sqrt_pd(v);
#else
  return L2{std::sqrt(v[0]), std::sqrt(v[1])};
#endif
}

}  // namespace hil::lanes
