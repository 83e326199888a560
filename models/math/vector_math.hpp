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

/// Two results of one kernel call.
struct Pair {
  double first;
  double second;
};

#if defined(__x86_64__)

namespace detail {
/// Kernel(a, b) in one call: lane 0 a, lane 1 b.
template <__m128d (*Kernel)(__m128d) noexcept>
Pair both(double a, double b) noexcept {
  const __m128d r = Kernel(_mm_set_pd(b, a));
  return {_mm_cvtsd_f64(r), _mm_cvtsd_f64(_mm_unpackhi_pd(r, r))};
}
}  // namespace detail

/// f(a) and f(b) in one call: the same bits as two f() calls.
inline Pair atan(double a, double b) noexcept { return detail::both<_ZGVbN2v_atan>(a, b); }
inline Pair sin(double a, double b) noexcept { return detail::both<_ZGVbN2v_sin>(a, b); }
inline Pair tan(double a, double b) noexcept { return detail::both<_ZGVbN2v_tan>(a, b); }
inline Pair exp(double a, double b) noexcept { return detail::both<_ZGVbN2v_exp>(a, b); }
inline Pair log(double a, double b) noexcept { return detail::both<_ZGVbN2v_log>(a, b); }
inline Pair cos(double a, double b) noexcept { return detail::both<_ZGVbN2v_cos>(a, b); }
/// Both lanes of a pair (models/math/lanes.hpp) in one call.
inline lanes::L2 atan(lanes::L2 x) noexcept { return _ZGVbN2v_atan(x); }
inline lanes::L2 sin(lanes::L2 x) noexcept { return _ZGVbN2v_sin(x); }
inline lanes::L2 exp(lanes::L2 x) noexcept { return _ZGVbN2v_exp(x); }
/// One value: lane 0 of a call (the other lane idle).
inline double atan(double x) noexcept { return atan(x, 0.0).first; }
inline double sin(double x) noexcept { return sin(x, 0.0).first; }
inline double tan(double x) noexcept { return tan(x, 0.0).first; }
inline double exp(double x) noexcept { return exp(x, 0.0).first; }

#else

inline double atan(double x) noexcept { return std::atan(x); }
inline double sin(double x) noexcept { return std::sin(x); }
inline double tan(double x) noexcept { return std::tan(x); }
inline double exp(double x) noexcept { return std::exp(x); }
inline Pair atan(double a, double b) noexcept { return {std::atan(a), std::atan(b)}; }
inline Pair sin(double a, double b) noexcept { return {std::sin(a), std::sin(b)}; }
inline Pair tan(double a, double b) noexcept { return {std::tan(a), std::tan(b)}; }
inline Pair exp(double a, double b) noexcept { return {std::exp(a), std::exp(b)}; }
inline Pair log(double a, double b) noexcept { return {std::log(a), std::log(b)}; }
inline Pair cos(double a, double b) noexcept { return {std::cos(a), std::cos(b)}; }
inline lanes::L2 atan(lanes::L2 x) noexcept { return {std::atan(x[0]), std::atan(x[1])}; }
inline lanes::L2 sin(lanes::L2 x) noexcept { return {std::sin(x[0]), std::sin(x[1])}; }
inline lanes::L2 exp(lanes::L2 x) noexcept { return {std::exp(x[0]), std::exp(x[1])}; }

#endif

}  // namespace hil::vmath
