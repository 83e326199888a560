#pragma once
// When one sent message goes out, tick by tick (docs/can.md "Rest-bus simulation"): its
// cyclic part every `cycle` ticks from `start`; its on-change part once at `start` and then
// after each change, no sooner than `gap` after its previous frame, followed by `repetitions`
// more frames every `repeat` ticks; its if-active part every `fast` ticks while active (the
// first at once). The start counts as a change unless `at_start` is false. A plain value; due() is
// RT-safe (noexcept, no allocation).

#include <algorithm>
#include <cstdint>
#include <limits>

namespace hil::io::can {

/// A SendPlan in ticks of the executive.
struct SendTicks {
  std::int64_t cycle = 0;  ///< 0: no cyclic part
  std::int64_t fast = 0;   ///< 0: no if-active part
  std::int64_t start = 0;
  std::int64_t gap = 0;
  std::int64_t repeat = 1;  ///< between the repetitions of a change (≥ 1)
  std::uint32_t repetitions = 0;
  bool on_change = false;
  bool at_start = true;  ///< the on-change part sends at `start` (with its repetitions)
};

class SendSchedule {
 public:
  SendSchedule() = default;
  explicit SendSchedule(const SendTicks& t) noexcept
      : t_(t),
        next_cyclic_(t.start),
        next_fast_(t.start),
        pending_(t.on_change && t.at_start ? t.start : kNever),
        repeats_left_(t.on_change && t.at_start ? t.repetitions : 0) {}

  /// RT: whether a frame goes out at `tick` (called once per tick, ticks increasing).
  /// `changed`: a signal changed since the previous tick; `active`: an if-active message's
  /// signals are not all inactive; `fault_cycle`: a cycle fault's period in ticks (0: none).
  [[nodiscard]] bool due(std::int64_t tick, bool changed, bool active,
                         std::int64_t fault_cycle) noexcept {
    if (tick < t_.start) {  // a change before the start delay goes out at the start
      if (changed && t_.on_change) {
        pending_ = t_.start;
        repeats_left_ = t_.repetitions;
      }
      return false;
    }
    bool send = false;
    if (t_.cycle > 0 && tick >= next_cyclic_) {
      send = true;
      const std::int64_t step = fault_cycle > 0 ? fault_cycle : t_.cycle;
      next_cyclic_ += step;
      if (next_cyclic_ <= tick) next_cyclic_ = tick + step;  // after skipped ticks
    }
    if (t_.fast > 0) {
      if (!active) {
        next_fast_ = tick + 1;  // becoming active sends at once
      } else if (tick >= next_fast_) {
        send = true;
        next_fast_ = tick + (fault_cycle > 0 ? fault_cycle : t_.fast);
      }
    }
    if (t_.on_change) {
      if (changed) {
        pending_ = std::min(pending_, std::max(tick, last_sent_ + t_.gap));
        repeats_left_ = t_.repetitions;
      }
      if (tick >= pending_) {
        send = true;
        pending_ = kNever;
        next_repeat_ = tick + std::max(t_.repeat, t_.gap);
      } else if (repeats_left_ > 0 && tick >= next_repeat_) {
        send = true;
        --repeats_left_;
        next_repeat_ = tick + std::max(t_.repeat, t_.gap);
      }
    }
    if (send) last_sent_ = tick;
    return send;
  }

  [[nodiscard]] const SendTicks& ticks() const noexcept { return t_; }
  /// Whether due() needs `changed`/`active` every tick (else only the cycle matters).
  [[nodiscard]] bool watches_values() const noexcept { return t_.on_change || t_.fast > 0; }

 private:
  static constexpr std::int64_t kNever = std::numeric_limits<std::int64_t>::max();
  SendTicks t_;
  std::int64_t next_cyclic_ = 0, next_fast_ = 0, pending_ = kNever, next_repeat_ = kNever;
  std::int64_t last_sent_ = std::numeric_limits<std::int64_t>::min() / 2;
  std::uint32_t repeats_left_ = 0;
};

}  // namespace hil::io::can
