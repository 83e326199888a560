#pragma once
// Several doubles computed as one: the models' per-wheel arithmetic for two wheels (L2, one
// SSE2 register) or four (L4: one AVX register in code built for AVX2, two SSE2 registers
// elsewhere) — GCC/Clang vector extensions. Each lane gets exactly the IEEE operation a
// scalar would (+ − × ÷ and √ are correctly rounded either way), and the helpers below choose
// as their std:: namesakes do (std::max(a, b) is `a < b ? b : a`, NaN included), so code
// written lane-wise in the scalar's order gives the scalar's bits at any width. Pure: any
// thread.

#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <utility>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace hil::lanes {

/// Lane 0 and lane 1.
using L2 = double __attribute__((vector_size(16)));
/// A comparison's result per lane: all ones (true) or zero.
using Mask2 = std::int64_t __attribute__((vector_size(16)));
/// Lanes 0 to 3.
using L4 = double __attribute__((vector_size(32)));
using Mask4 = std::int64_t __attribute__((vector_size(32)));

template <class V>
struct Traits;
template <>
struct Traits<L2> {
  static constexpr int kWidth = 2;
  using Mask = Mask2;
};
template <>
struct Traits<L4> {
  static constexpr int kWidth = 4;
  using Mask = Mask4;
};

/// L2 or L4.
template <class V>
concept Lanes = requires {
  Traits<V>::kWidth;
};
template <Lanes V>
inline constexpr int kWidth = Traits<V>::kWidth;
template <Lanes V>
using MaskOf = typename Traits<V>::Mask;

[[nodiscard]] inline L2 make(double lane0, double lane1) noexcept { return L2{lane0, lane1}; }
[[nodiscard]] inline L2 splat(double v) noexcept { return L2{v, v}; }
/// v in every lane of V.
template <Lanes V>
[[nodiscard]] V splat(double v) noexcept {
  return V{} + v;
}
/// Lane l = lane(l).
template <Lanes V, class F>
[[nodiscard]] V gather(F&& lane) noexcept {
  return [&]<int... l>(std::integer_sequence<int, l...>) { return V{lane(l)...}; }
  (std::make_integer_sequence<int, kWidth<V>>{});
}

/// std::array of lane(l) per lane, each element initialised in place from the value lane(l)
/// returns (no copy of a struct just built: that stalls store forwarding).
template <Lanes V, class F>
[[nodiscard]] auto array_of(F&& lane) noexcept {
  return [&]<int... l>(std::integer_sequence<int, l...>) {
    return std::array<decltype(lane(0)), sizeof...(l)>{lane(l)...};
  }
  (std::make_integer_sequence<int, kWidth<V>>{});
}

/// Lanes 0–1 and 2–3 of an L4, and the L4 of two L2.
[[nodiscard]] inline L2 low(L4 v) noexcept { return __builtin_shufflevector(v, v, 0, 1); }
[[nodiscard]] inline L2 high(L4 v) noexcept { return __builtin_shufflevector(v, v, 2, 3); }
[[nodiscard]] inline L4 join(L2 lanes01, L2 lanes23) noexcept {
  return __builtin_shufflevector(lanes01, lanes23, 0, 1, 2, 3);
}

/// mask ? a : b, per lane (bitwise: no arithmetic on the lane not chosen).
template <Lanes V>
[[nodiscard]] V select(MaskOf<V> mask, V a, V b) noexcept {
  using M = MaskOf<V>;
  return std::bit_cast<V>((mask & std::bit_cast<M>(a)) | (~mask & std::bit_cast<M>(b)));
}

/// std::abs: the sign bit cleared.
template <Lanes V>
[[nodiscard]] V abs(V v) noexcept {
  using M = MaskOf<V>;
  return std::bit_cast<V>(std::bit_cast<M>(v) & (M{} + INT64_MAX));
}
/// std::max(a, b): `a < b ? b : a`.
template <Lanes V>
[[nodiscard]] V max(V a, V b) noexcept {
  return select(a < b, b, a);
}
/// std::min(a, b): `b < a ? b : a`.
template <Lanes V>
[[nodiscard]] V min(V a, V b) noexcept {
  return select(b < a, b, a);
}
/// std::clamp(v, lo, hi): `v < lo ? lo : hi < v ? hi : v`.
template <Lanes V>
[[nodiscard]] V clamp(V v, V lo, V hi) noexcept {
  return select(v < lo, lo, select(hi < v, hi, v));
}

[[nodiscard]] inline L2 sqrt(L2 v) noexcept {
#if defined(__SSE2__)
  return _mm_sqrt_pd(v);
#else
  return L2{std::sqrt(v[0]), std::sqrt(v[1])};
#endif
}
[[nodiscard]] inline L4 sqrt(L4 v) noexcept { return join(sqrt(low(v)), sqrt(high(v))); }

}  // namespace hil::lanes
