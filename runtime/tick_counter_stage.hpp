#pragma once
// The loop's progress for the service watchdog (tools/session/loop/sd_notify.hpp): a stage that
// counts the ticks the executive has completed.

#include <atomic>
#include <cstdint>

#include "rt_core/stage.hpp"

namespace hil::runtime {

/// Add it as the executive's last stage (slot tick_counter): it then ends every tick, so the
/// count covers only complete ticks. One relaxed store per tick on the RT thread.
class TickCounterStage final : public rt::Stage {
 public:
  /// RT thread. Relaxed: the count is the only thing it publishes (see RunNotifier).
  void run(const rt::TickContext& ctx) noexcept override {
    ticks_.store(ctx.tick + 1, std::memory_order_relaxed);
  }

  /// Any thread: ticks completed so far, to hand to RunNotifier.
  [[nodiscard]] const std::atomic<std::int64_t>& ticks() const noexcept { return ticks_; }

 private:
  std::atomic<std::int64_t> ticks_{0};
};

}  // namespace hil::runtime
