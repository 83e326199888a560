#pragma once
// Transcendentals for the model step from glibc's libmvec (the SSE 2-lane kernels that GCC's
// vectoriser calls): about 3× the throughput of the scalar libm, which saves and restores the
// rounding mode around every call; ≤ 4 ulp instead of correctly rounded (docs/performance.md).
// Deterministic: the kernel glibc picks on every x86-64 with SSE4.1 (all since 2008) is the
// same code, so a run replays bit for bit on any such machine with the same glibc. Elsewhere
// (another architecture) the scalar libm. Pure functions: any thread, noexcept, no allocation.

#include <cmath>

#include "models/math/lanes.hpp"

#if defined(__x86_64__)
#include <emmintrin.h>

extern "C" {
// glibc libmvec, vector ABI "b" (SSE, 2 lanes): libmvec.so.1, GLIBC_2.22 / 2.35
__m128d _ZGVbN2v_atan(__m128d) noexcept;  // NOLINT(bugprone-reserved-identifier)
__m128d _ZGVbN2v_sin(__m128d) noexcept;   // NOLINT(bugprone-reserved-identifier)
__m128d _ZGVbN2v_tan(__m128d) noexcept;   // NOLINT(bugprone-reserved-identifier)
__m128d _ZGVbN2v_exp(__m128d) noexcept;   // NOLINT(bugprone-reserved-identifier)
__m128d _ZGVbN2v_log(__m128d) noexcept;   // NOLINT(bugprone-reserved-identifier)
__m128d _ZGVbN2v_cos(__m128d) noexcept;   // NOLINT(bugprone-reserved-identifier)
}
#endif

namespace hil::vmath {

// Both lanes of a pair (models/math/lanes.hpp) in one kernel call: each lane the same bits as
// that value alone.
#if defined(__x86_64__)
inline lanes::L2 atan(lanes::L2 x) noexcept { return _ZGVbN2v_atan(x); }
inline lanes::L2 sin(lanes::L2 x) noexcept { return _ZGVbN2v_sin(x); }
inline lanes::L2 tan(lanes::L2 x) noexcept { return _ZGVbN2v_tan(x); }
inline lanes::L2 exp(lanes::L2 x) noexcept { return _ZGVbN2v_exp(x); }
inline lanes::L2 log(lanes::L2 x) noexcept { return _ZGVbN2v_log(x); }
inline lanes::L2 cos(lanes::L2 x) noexcept { return _ZGVbN2v_cos(x); }
#else
inline lanes::L2 atan(lanes::L2 x) noexcept { return {std::atan(x[0]), std::atan(x[1])}; }
inline lanes::L2 sin(lanes::L2 x) noexcept { return {std::sin(x[0]), std::sin(x[1])}; }
inline lanes::L2 tan(lanes::L2 x) noexcept { return {std::tan(x[0]), std::tan(x[1])}; }
inline lanes::L2 exp(lanes::L2 x) noexcept { return {std::exp(x[0]), std::exp(x[1])}; }
inline lanes::L2 log(lanes::L2 x) noexcept { return {std::log(x[0]), std::log(x[1])}; }
inline lanes::L2 cos(lanes::L2 x) noexcept { return {std::cos(x[0]), std::cos(x[1])}; }
#endif
// Four lanes: two calls of the 2-lane kernel, each half the bits it gives alone (the 4-lane AVX2
// kernels round differently: docs/performance.md).
inline lanes::L4 atan(lanes::L4 x) noexcept {
  return lanes::join(atan(lanes::low(x)), atan(lanes::high(x)));
}
inline lanes::L4 sin(lanes::L4 x) noexcept {
  return lanes::join(sin(lanes::low(x)), sin(lanes::high(x)));
}
inline lanes::L4 exp(lanes::L4 x) noexcept {
  return lanes::join(exp(lanes::low(x)), exp(lanes::high(x)));
}
/// One value: lane 0 of a call.
inline double tan(double x) noexcept { return tan(lanes::make(x, 0.0))[0]; }

}  // namespace hil::vmath
