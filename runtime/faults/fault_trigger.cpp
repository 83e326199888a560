#include "runtime/faults/fault_trigger.hpp"

#include <variant>

namespace hil::runtime::detail {

bool Condition::holds(std::int64_t tick, double v) noexcept {
  using Test = config::FaultCondition::Test;
  if (test == Test::crosses) {  // the tick the value passes `value`, either way
    const bool crossed = has_last && (last - value) * (v - value) <= 0.0 && last != v;
    last = v;
    has_last = true;
    return crossed;
  }
  const bool now = test == Test::above ? v > value : v < value;
  if (!now) {
    true_since = -1;
    return false;
  }
  if (true_since < 0) true_since = tick;
  return tick - true_since >= debounce;
}

void advance_trigger(Fault& f, std::int64_t tick, const rt::ChannelTable& table,
                     bool after_stopped) noexcept {
  if (!f.started) {
    bool go = false;
    switch (f.start) {
      case Fault::Start::at:
        go = tick >= f.start_tick;
        break;
      case Fault::Start::condition:
        go = f.start_condition.holds(tick, table.get(f.start_condition.channel));
        break;
      case Fault::Start::after:
        go = after_stopped;
        break;
    }
    if (go) {
      f.started = true;
      f.onset = tick;
    }
  }
  if (f.started && !f.stopped) {
    bool end = f.force_stop;
    switch (f.stop) {
      case Fault::Stop::never:
        break;
      case Fault::Stop::duration:
        end = end || tick - f.onset >= f.duration;
        break;
      case Fault::Stop::count:
        end = end || f.count >= f.stop_count;
        break;
      case Fault::Stop::condition:
        end = end ||
              (tick > f.onset && f.stop_condition.holds(tick, table.get(f.stop_condition.channel)));
        break;
    }
    if (end) f.stopped = true;
  }
  if (f.force_stop && !f.started) f.stopped = true;  // cleared before it began
  f.active = f.started && !f.stopped &&
             (f.pulse_on == 0 || (tick - f.onset) % (f.pulse_on + f.pulse_off) < f.pulse_on);
  if (f.active) {
    if (f.first_active < 0) f.first_active = tick;
    f.last_active = tick;
    if (!std::holds_alternative<config::MessageFaultSpec>(f.settings.target)) ++f.count;
  }
}

}  // namespace hil::runtime::detail
