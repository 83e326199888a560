#include "runtime/faults/channel_faults.hpp"

#include <bit>
#include <limits>

namespace hil::runtime::detail {

namespace {

/// What channel fault `f` makes of the true value `v` at `tick`.
double faulted(Fault& f, const config::ChannelFaultSpec& c, double v, double delayed,
               std::int64_t tick, rt::Nanoseconds period) noexcept {
  switch (c.op) {
    case config::ChannelOp::force:
      return c.value;
    case config::ChannelOp::stuck:
      if (!f.stuck_captured) {
        f.stuck = c.has_value ? c.value : v;
        f.stuck_captured = true;
      }
      return f.stuck;
    case config::ChannelOp::offset:
      return v + c.value;
    case config::ChannelOp::gain:
      return v * c.value;
    case config::ChannelOp::noise:
      return v + c.value * f.normal(f.rng);
    case config::ChannelOp::drift:
      return v + c.value * static_cast<double>(tick - f.onset) * static_cast<double>(period) * 1e-9;
    case config::ChannelOp::delay:
      return delayed;
    case config::ChannelOp::nan:
      return std::numeric_limits<double>::quiet_NaN();
  }
  return v;
}

}  // namespace

void apply_channel_fault(Fault& f, rt::ChannelTable& table, std::int64_t tick,
                         rt::Nanoseconds period) noexcept {
  double v = table.get(f.target);
  // nobody wrote the channel since the fault did: the truth is still what it was
  if (f.wrote && std::bit_cast<std::uint64_t>(v) == std::bit_cast<std::uint64_t>(f.applied)) {
    v = f.original;
  }
  f.original = v;
  if (f.has_channels) table.set(f.original_channel, v);
  const auto& c = std::get<config::ChannelFaultSpec>(f.settings.target);
  double delayed = v;
  if (!f.delay_ring.empty()) {  // fed every tick: at the onset it already holds the past
    f.delay_ring[f.delay_pos] = v;
    f.delay_pos = (f.delay_pos + 1) % f.delay_ring.size();
    delayed = f.delay_ring[f.delay_pos];
  }
  if (!f.active) {
    if (f.wrote) table.set(f.target, v);  // the fault is off: the truth again
    f.wrote = false;
    f.stuck_captured = false;
    return;
  }
  const double w = faulted(f, c, v, delayed, tick, period);
  table.set(f.target, w);
  f.applied = w;
  f.wrote = true;
}

}  // namespace hil::runtime::detail
