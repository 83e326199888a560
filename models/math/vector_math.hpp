#pragma once
// Transcendentals for the model step from glibc's libmvec (the kernels that GCC's vectoriser
// calls): about 3× the throughput of the scalar libm, which saves and restores the rounding mode
// around every call; ≤ 4 ulp instead of correctly rounded (docs/performance.md). Two families:
// the SSE 2-lane kernels, the same code on every x86-64 with SSE4.1 (all since 2008), and the
// AVX2 4-lane ones (Avx2Fma below: FMA inside, so they round differently from the SSE ones in the
// last bit of a few values in a hundred), for the four-lane build of the wheels on CPUs with AVX2
// and FMA. Elsewhere (another architecture) the scalar libm. Pure functions: any thread,
// noexcept, no allocation.

#include <cmath>

#include "models/math/lanes.hpp"

#if defined(__x86_64__)
#include <emmintrin.h>
#include <immintrin.h>

extern "C" {
// glibc libmvec, vector ABI "b" (SSE, 2 lanes): libmvec.so.1, GLIBC_2.22 / 2.35
__m128d _ZGVbN2v_atan(__m128d) noexcept;  // NOLINT(bugprone-reserved-identifier)
__m128d _ZGVbN2v_sin(__m128d) noexcept;   // NOLINT(bugprone-reserved-identifier)
__m128d _ZGVbN2v_tan(__m128d) noexcept;   // NOLINT(bugprone-reserved-identifier)
__m128d _ZGVbN2v_exp(__m128d) noexcept;   // NOLINT(bugprone-reserved-identifier)
__m128d _ZGVbN2v_log(__m128d) noexcept;   // NOLINT(bugprone-reserved-identifier)
__m128d _ZGVbN2v_cos(__m128d) noexcept;   // NOLINT(bugprone-reserved-identifier)
// vector ABI "d" (AVX2, 4 lanes): callable only from code built for AVX2
__m256d _ZGVdN4v_atan(__m256d) noexcept;  // NOLINT(bugprone-reserved-identifier)
__m256d _ZGVdN4v_sin(__m256d) noexcept;   // NOLINT(bugprone-reserved-identifier)
__m256d _ZGVdN4v_exp(__m256d) noexcept;   // NOLINT(bugprone-reserved-identifier)
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
// Four lanes, portable: two calls of the 2-lane kernel, each half the bits it gives alone.
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

/// The kernels a lanes template calls (tire_lanes.hpp: evaluate_tires<V, Math>): the functions
/// above, for any width and any build.
struct Portable {
  template <lanes::Lanes V>
  static V atan(V x) noexcept {
    return vmath::atan(x);
  }
  template <lanes::Lanes V>
  static V sin(V x) noexcept {
    return vmath::sin(x);
  }
  template <lanes::Lanes V>
  static V exp(V x) noexcept {
    return vmath::exp(x);
  }
};

/// Whether this CPU has AVX2 and FMA: where Avx2Fma may be called (from code built for AVX2),
/// and glibc then runs its kernels' AVX2 build.
[[nodiscard]] inline bool avx2_fma_available() noexcept {
#if defined(__x86_64__) && defined(__GNUC__)
  return __builtin_cpu_supports("avx2") != 0 && __builtin_cpu_supports("fma") != 0;
#else
  return false;
#endif
}

#if defined(__x86_64__)
/// Four lanes in one call of glibc's AVX2 kernel: for code built for AVX2 only (its vector ABI),
/// called where the CPU has AVX2 and FMA (glibc then runs the kernel's AVX2 build; the four-lane
/// wheels, models/vehicle/vehicle_lanes.cpp). Each lane within 4 ulp of the SSE kernel's value,
/// not its bits: which family a run used is in its manifest (docs/recording.md).
struct Avx2Fma {
  static lanes::L4 atan(lanes::L4 x) noexcept { return _ZGVdN4v_atan(x); }
  static lanes::L4 sin(lanes::L4 x) noexcept { return _ZGVdN4v_sin(x); }
  static lanes::L4 exp(lanes::L4 x) noexcept { return _ZGVdN4v_exp(x); }
};
#endif

}  // namespace hil::vmath
