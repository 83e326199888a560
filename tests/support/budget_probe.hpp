#pragma once
// The RT budget of a run (DESIGN.md §5) as a task in the tick: the heap allocations and this
// thread's minor page faults after a warm-up tick and at the last tick. Put it in the last
// slot of the phase to watch; a test binary linking tests/support/allocation_counter.cpp.

#include <cstdint>

#include "rt_core/stage.hpp"
#include "tests/support/allocation_counter.hpp"

namespace hil::testing {

struct Budget {
  std::uint64_t allocations = 0;
  long faults = 0;
};

/// `thread_only`: count the calling (RT) thread's allocations only (helper threads allocate).
inline Budget budget_now(bool thread_only = false) noexcept {
  return {.allocations = thread_only ? thread_allocation_count() : allocation_count(),
          .faults = thread_minor_faults()};
}

class BudgetProbe final : public rt::Stage {
 public:
  BudgetProbe(std::int64_t warm_up, std::int64_t last, bool thread_only = false)
      : warm_up_(warm_up), last_(last), thread_only_(thread_only) {}
  void run(const rt::TickContext& c) noexcept override { take(c); }
  Budget before, after;

 private:
  void take(const rt::TickContext& c) noexcept {
    if (c.tick == warm_up_) before = budget_now(thread_only_);
    if (c.tick == last_) after = budget_now(thread_only_);
  }
  std::int64_t warm_up_, last_;
  bool thread_only_;
};

}  // namespace hil::testing
