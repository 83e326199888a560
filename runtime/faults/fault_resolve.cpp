#include "runtime/faults/fault_resolve.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>
#include <string_view>
#include <variant>

namespace hil::runtime::detail {

namespace {

/// ceil(seconds / period) in ticks, robust to the decimal's binary error.
std::int64_t ceil_ticks(double seconds, rt::Nanoseconds period) {
  return static_cast<std::int64_t>(std::ceil(seconds * 1e9 / static_cast<double>(period) - 1e-6));
}
std::int64_t round_ticks(double seconds, rt::Nanoseconds period) {
  return std::llround(seconds * 1e9 / static_cast<double>(period));
}

std::uint64_t fnv1a(std::string_view s) {
  std::uint64_t h = 1469598103934665603ULL;
  for (const char c : s) h = (h ^ static_cast<unsigned char>(c)) * 1099511628211ULL;
  return h;
}

Condition resolve(const config::FaultCondition& c, const rt::ChannelTable& table,
                  rt::Nanoseconds period) {
  return {.channel = table.resolve(c.channel),
          .test = c.test,
          .value = c.value,
          .debounce = round_ticks(c.for_s, period)};
}

std::size_t bus_index(const FaultTargets& targets, const std::string& bus,
                      const config::FaultSpec& s) {
  for (std::size_t i = 0; i < targets.buses.size(); ++i) {
    if (targets.buses[i]->name() == bus) return i;
  }
  throw std::runtime_error(fmt::format("fault \"{}\": the rig has no CAN bus {}", s.name, bus));
}

/// "drop of HIL_WheelSpeeds on ecu", "offset of vehicle.body.speed", "silence of bus ecu".
std::string describe(const config::FaultSpec& f) {
  static constexpr const char* kChannelOps[] = {"force", "stuck", "offset", "gain",
                                                "noise", "drift", "delay",  "nan"};
  static constexpr const char* kMessageOps[] = {
      "drop", "delay", "cycle", "dlc", "crc", "counter", "signal", "bits", "duplicate", "data id"};
  if (const auto* c = std::get_if<config::ChannelFaultSpec>(&f.target)) {
    return fmt::format("{} of {}", kChannelOps[static_cast<int>(c->op)], c->channel);
  }
  if (const auto* m = std::get_if<config::MessageFaultSpec>(&f.target)) {
    return fmt::format("{} of {} on {}", kMessageOps[static_cast<int>(m->op)], m->message, m->bus);
  }
  const auto& b = std::get<config::BusFaultSpec>(f.target);
  if (!b.node.empty()) return fmt::format("silence of node {} on bus {}", b.node, b.bus);
  return fmt::format("silence of bus {}", b.bus);
}

}  // namespace

std::optional<MessageRef> resolve_fault(Fault& f, const FaultWorld& world,
                                        std::span<const std::unique_ptr<Fault>> faults) {
  const config::FaultSpec& s = f.settings;
  const rt::ChannelTable& table = world.table;
  const rt::Nanoseconds period = world.period;
  f.what = describe(s);
  const std::string stem = "fault." + config::fault_channel_stem(s.name);
  if (f.has_channels) {
    f.active_channel = table.resolve(stem + ".active");
    f.count_channel = table.resolve(stem + ".count");
  }
  f.rng.seed(world.seed ^ fnv1a(s.name));
  if (const auto* at = std::get_if<config::FaultStartAt>(&s.start)) {
    f.start = Fault::Start::at;
    f.start_tick = ceil_ticks(at->at_s, period);
  } else if (const auto* c = std::get_if<config::FaultCondition>(&s.start)) {
    f.start = Fault::Start::condition;
    f.start_condition = resolve(*c, table, period);
  } else {
    f.start = Fault::Start::after;
    const std::string& name = std::get<config::FaultAfter>(s.start).fault;
    for (std::size_t i = 0; i < faults.size(); ++i) {
      if (faults[i]->settings.name == name) f.after = i;
    }
  }
  if (const auto* d = std::get_if<config::FaultDuration>(&s.stop)) {
    f.stop = Fault::Stop::duration;
    f.duration = std::max<std::int64_t>(1, round_ticks(d->s, period));
  } else if (const auto* n = std::get_if<config::FaultCount>(&s.stop)) {
    f.stop = Fault::Stop::count;
    f.stop_count = n->n;
  } else if (const auto* c = std::get_if<config::FaultCondition>(&s.stop)) {
    f.stop = Fault::Stop::condition;
    f.stop_condition = resolve(*c, table, period);
  }
  if (s.pulse) {
    f.pulse_on = std::max<std::int64_t>(1, round_ticks(s.pulse->first, period));
    f.pulse_off = std::max<std::int64_t>(1, round_ticks(s.pulse->second, period));
  }
  if (const auto* c = std::get_if<config::ChannelFaultSpec>(&s.target)) {
    f.target = table.resolve(c->channel);
    f.input = table.spec(f.target).direction == rt::Direction::input;
    if (f.has_channels) f.original_channel = table.resolve(stem + ".original");
    if (c->op == config::ChannelOp::delay) {
      f.delay_ring.assign(static_cast<std::size_t>(round_ticks(c->value, period)) + 1, 0.0);
    }
    return std::nullopt;
  }
  if (const auto* b = std::get_if<config::BusFaultSpec>(&s.target)) {
    f.bus = bus_index(world.targets, b->bus, s);
    if (!b->node.empty()) {
      f.node = world.targets.buses[f.bus]->node_index(b->node);
      if (f.node < 0) {
        throw std::runtime_error(
            fmt::format("fault \"{}\": bus {} has no node {}", s.name, b->bus, b->node));
      }
    }
    return std::nullopt;
  }
  const auto& m = std::get<config::MessageFaultSpec>(s.target);
  const std::size_t b = bus_index(world.targets, m.bus, s);
  const io::can::CanBusSpec& spec = world.targets.bus_specs[b];
  std::size_t index = 0;
  bool found = false;
  const std::size_t n = m.transmitted ? spec.tx.size() : spec.rx.size();
  for (; index < n && !found; ++index) {
    found = (m.transmitted ? spec.tx[index].message : spec.rx[index].message) == m.message;
  }
  if (!found) {
    throw std::runtime_error(
        fmt::format("fault \"{}\": bus {} has no message {}", s.name, m.bus, m.message));
  }
  --index;
  const io::can::dbc::Message* message = spec.database.find_message(m.message);
  std::int64_t cycle = 1;
  if (message != nullptr && message->cycle_time_ms && *message->cycle_time_ms > 0) {
    cycle = std::max<std::int64_t>(1, round_ticks(*message->cycle_time_ms * 1e-3, period));
  }
  if (m.transmitted && spec.tx[index].cycle_s) {
    cycle = std::max<std::int64_t>(1, round_ticks(*spec.tx[index].cycle_s, period));
  }
  f.cycle_ticks = m.op == config::MessageOp::cycle && m.cycle_ms > 0
                      ? std::max<std::int64_t>(1, round_ticks(m.cycle_ms * 1e-3, period))
                      : 0;
  f.delay_ticks = round_ticks(m.delay_ms * 1e-3, period);
  if (m.op == config::MessageOp::signal && message != nullptr) {
    for (std::size_t i = 0; i < message->signals.size(); ++i) {
      if (message->signals[i].name == m.signal) f.signal = i;
    }
  }
  f.bus = b;
  return MessageRef{.bus = b, .tx = m.transmitted, .index = index, .cycle_ticks = cycle};
}

}  // namespace hil::runtime::detail
