#pragma once
// The RT loop's progress for the service watchdog (tools/session/sd_notify.hpp): a task that counts
// the ticks the executive has completed.

#include <atomic>
#include <cstdint>

#include "rt_core/task.hpp"

namespace hil::session {

/// Add it as the executive's last task (decimation 1): its write phase then ends every tick,
/// so the count covers only complete ticks. One relaxed store per tick on the RT thread.
class TickCounterTask final : public rt::Task {
 public:
  void update(const rt::TickContext& /*ctx*/) noexcept override {}
  /// RT thread. Relaxed: the count is the only thing it publishes (see RunNotifier).
  void write(const rt::TickContext& ctx) noexcept override {
    ticks_.store(ctx.tick + 1, std::memory_order_relaxed);
  }

  /// Any thread: ticks completed so far, to hand to RunNotifier.
  [[nodiscard]] const std::atomic<std::int64_t>& ticks() const noexcept { return ticks_; }

 private:
  std::atomic<std::int64_t> ticks_{0};
};

}  // namespace hil::session
