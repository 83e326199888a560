#pragma once
// Counts heap allocations of the whole test binary (DESIGN.md §5: prove the RT path does
// not allocate). Link tests/support/allocation_counter.cpp into a test binary of its own: it
// replaces the global operator new/delete. Also reads the calling thread's minor page
// faults, the other half of the RT budget.

#include <cstdint>

namespace hil::testing {

/// Allocations through operator new since the program started (any thread).
[[nodiscard]] std::uint64_t allocation_count() noexcept;

/// Allocations made by the calling thread since it started.
[[nodiscard]] std::uint64_t thread_allocation_count() noexcept;

/// The allocations `body()` makes on the calling thread.
template <class Body>
[[nodiscard]] std::uint64_t allocations_in(Body&& body) {
  const std::uint64_t before = thread_allocation_count();
  body();
  return thread_allocation_count() - before;
}

/// Minor page faults of the calling thread so far (getrusage RUSAGE_THREAD).
[[nodiscard]] long thread_minor_faults() noexcept;

/// A sanitizer runtime faults in its own shadow memory lazily, which says nothing about our
/// code: under ASan/TSan only the allocation count is meaningful.
#if defined(__SANITIZE_THREAD__) || defined(__SANITIZE_ADDRESS__)
inline constexpr bool kPageFaultsAreMeaningful = false;
#else
inline constexpr bool kPageFaultsAreMeaningful = true;
#endif

}  // namespace hil::testing
