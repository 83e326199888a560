#include "io/can/mapping/can_bus.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <exception>
#include <limits>
#include <stdexcept>

#include "io/can/mapping/bus_plan.hpp"
#include "io/can/mapping/can_bus_state.hpp"
#include "io/can/transport/transport_factory.hpp"

namespace hil::io::can {

using detail::Binding;

namespace {

/// Whole ticks of `ms` (at least `at_least`).
std::int64_t ticks_of(double ms, double period_s, std::int64_t at_least) {
  return std::max<std::int64_t>(at_least, std::llround(ms / 1000.0 / period_s));
}

SendTicks send_ticks(const SendPlan& p, double period_s) {
  SendTicks t;
  if (p.cyclic) t.cycle = ticks_of(*p.cycle_ms, period_s, 1);
  if (p.if_active)
    t.fast = ticks_of(p.fast_cycle_ms.value_or(p.cycle_ms.value_or(0.0)), period_s, 1);
  t.start = ticks_of(p.start_delay_ms, period_s, 0);
  t.gap = ticks_of(p.min_gap_ms, period_s, 0);
  t.repeat = ticks_of(p.fast_cycle_ms.value_or(p.min_gap_ms), period_s, 1);
  t.repetitions = p.repetitions;
  t.on_change = p.on_change;
  t.at_start = p.at_start;
  return t;
}

/// The payload bits a signal occupies, as a byte mask.
std::array<std::uint8_t, kMaxFdLength> signal_bits(const dbc::CompiledSignal& s) {
  std::array<std::uint8_t, kMaxFdLength> bits{};
  if (s.layout.bytes_needed <= bits.size()) dbc::write_raw(s.layout, ~std::uint64_t{0}, bits);
  return bits;
}

bool overlaps(const std::array<std::uint8_t, kMaxFdLength>& a,
              const std::array<std::uint8_t, kMaxFdLength>& b) {
  for (std::size_t i = 0; i < a.size(); ++i) {
    if ((a[i] & b[i]) != 0) return true;
  }
  return false;
}

/// The payload bits an E2E profile writes (CRC, counter, data id nibble).
std::array<std::uint8_t, kMaxFdLength> header_bits(const e2e::ProfileSpec& p) {
  std::array<std::uint8_t, kMaxFdLength> bits{};
  const e2e::HeaderLayout layout = e2e::header_layout(p);
  for (std::uint32_t b = 0; b < bits.size() * 8; ++b) {
    if (e2e::owns_bit(layout, b))
      bits[b / 8] = static_cast<std::uint8_t>(bits[b / 8] | (1U << (b % 8)));
  }
  return bits;
}

std::string unit_of(const dbc::Signal& s) { return s.unit.empty() ? std::string("-") : s.unit; }

}  // namespace

std::string message_channel(std::string_view bus, std::string_view message, std::string_view leaf) {
  return fmt::format("can.{}.{}.{}", bus, detail::snake_case(message), leaf);
}

std::string signal_channel(std::string_view bus, std::string_view message,
                           std::string_view signal) {
  return message_channel(bus, message, detail::snake_case(signal));
}

CanBus::~CanBus() = default;

std::unique_ptr<CanBus> CanBus::create(const CanBusSpec& given, rt::ChannelTable& table,
                                       double period_s, std::uint8_t index,
                                       std::vector<MappingProblem>& problems,
                                       std::unique_ptr<Transport> transport) {
  const std::size_t problems_before = problems.size();
  CanBusSpec planned;
  if (!given.planned) {
    planned = given;
    plan_bus(planned, problems);
  }
  const CanBusSpec& spec = given.planned ? given : planned;
  std::unique_ptr<CanBus> bus(new CanBus());
  bus->name_ = spec.name;
  bus->index_ = index;
  if (!rt::is_valid_channel_name(spec.name) || spec.name.find('.') != std::string::npos) {
    problems.push_back({"name", fmt::format("\"{}\" is not a lower snake case name (e.g. ecu, "
                                            "body_can)",
                                            spec.name)});
    return nullptr;
  }
  bus->db_ = std::make_unique<dbc::CompiledDatabase>(spec.database);
  for (const dbc::Node& n : spec.database.nodes) bus->nodes_.push_back(n.name);
  const detail::Resolver resolve(spec, table, problems);
  bus->rx_of_message_.assign(spec.database.messages.size(), -1);
  const auto add_channel = [&](rt::ChannelSpec c,
                               const std::string& field) -> std::optional<rt::ChannelId> {
    try {
      return table.add(std::move(c));
    } catch (const std::invalid_argument& e) {
      problems.push_back({field, e.what()});
      return std::nullopt;
    }
  };

  for (std::size_t i = 0; i < spec.rx.size(); ++i) {
    const RxMessageSpec& r = spec.rx[i];
    const std::string at = fmt::format("rx[{}]", i);
    const std::int32_t m = resolve.message(r.message, at + ".message");
    if (m < 0) continue;
    if (bus->rx_of_message_[static_cast<std::size_t>(m)] >= 0) {
      problems.push_back(
          {at + ".message", fmt::format("\"{}\" is mapped for reception twice", r.message)});
      continue;
    }
    const dbc::Message& message = spec.database.messages[static_cast<std::size_t>(m)];
    auto rx = std::make_unique<Rx>();
    rx->name = r.message;
    rx->dut = r.dut;
    rx->message = &bus->db_->messages()[static_cast<std::size_t>(m)];
    rx->bindings = resolve.bindings(m, r.signals, at, rt::Direction::input);
    rx->values.resize(rx->message->signals.size());
    rx->e2e = resolve.e2e(m, r.alive_counter, r.crc, r.crc_data_id, at);
    rx->profile = r.e2e;
    const std::optional<std::int64_t> cycle = resolve.cycle_ticks(m, std::nullopt, period_s);
    rx->cycle_ticks = cycle.value_or(0);
    if (r.timeout_s) {
      rx->timeout_ticks = static_cast<std::int64_t>(std::ceil(*r.timeout_s / period_s - 1e-9));
    } else if (cycle) {
      rx->timeout_ticks = 3 * *cycle;  // default 3 cycle times
    } else if (r.dut) {
      rx->timeout_ticks = -1;  // the device under test sends it on change: never missing
    } else {
      problems.push_back({at + ".timeout", fmt::format("\"{}\" has no GenMsgCycleTime in the "
                                                       "DBC; expected a timeout_ms",
                                                       r.message)});
    }
    rx->hold_ticks = static_cast<std::int64_t>(r.hold_cycles) *
                     cycle.value_or(std::max<std::int64_t>(rx->timeout_ticks / 3, 1));
    for (std::size_t k = 0; k < r.safe.size(); ++k) {
      if (const std::optional<rt::ChannelId> id =
              resolve.channel(r.safe[k].first, fmt::format("{}.on_timeout.set[{}].channel", at, k),
                              rt::Direction::input)) {
        rx->safe.emplace_back(*id, r.safe[k].second);
      }
    }
    rx->status = table.add(
        {.name = message_channel(spec.name, r.message, "timeout"),
         .unit = "-",
         .direction = rt::Direction::output,
         .description = fmt::format("1 while {} is missing on {}", r.message, spec.name)});
    if (rx->profile) {
      rx->e2e_status = add_channel(
          {.name = message_channel(spec.name, r.message, "e2e"),
           .unit = "-",
           .direction = rt::Direction::output,
           .initial = static_cast<double>(e2e::Status::no_data),
           .description = fmt::format("E2E check of {}: 0 OK, 1 REPEATED, 2 WRONG_SEQUENCE, "
                                      "3 ERROR, 4 NODATA",
                                      r.message)},
          at);
      rx->no_data_at = cycle ? *cycle + *cycle / 2 : std::numeric_limits<std::int64_t>::max();
    }
    if (r.dut && r.signals.empty()) {  // the device's signals, as received
      for (std::size_t k = 0; k < message.signals.size(); ++k) {
        const dbc::Signal& s = message.signals[k];
        if (const std::optional<rt::ChannelId> id = add_channel(
                {.name = signal_channel(spec.name, r.message, s.name),
                 .unit = unit_of(s),
                 .direction = rt::Direction::output,
                 .description = fmt::format("{} of {} as received from the device under test",
                                            s.name, r.message)},
                at)) {
          rx->bindings.push_back({k, *id});
        }
      }
    }
    bus->rx_of_message_[static_cast<std::size_t>(m)] = static_cast<std::int32_t>(bus->rx_.size());
    bus->rx_.push_back(std::move(rx));
  }

  for (std::size_t i = 0; i < spec.tx.size(); ++i) {
    const TxMessageSpec& t = spec.tx[i];
    const std::string at = fmt::format("tx[{}]", i);
    const std::int32_t m = resolve.message(t.message, at + ".message");
    if (m < 0) continue;
    const dbc::Message& message = spec.database.messages[static_cast<std::size_t>(m)];
    auto tx = std::make_unique<Tx>();
    tx->message = &bus->db_->messages()[static_cast<std::size_t>(m)];
    tx->bindings = resolve.bindings(m, t.signals, at, std::nullopt);
    tx->values = detail::start_values(message);
    tx->physical = tx->values;
    tx->e2e = resolve.e2e(m, t.alive_counter, t.crc, t.crc_data_id, at);
    tx->profile = t.e2e;
    if (tx->profile && (tx->e2e.counter >= 0 || tx->e2e.crc >= 0)) {
      problems.push_back({at + ".alive_counter", fmt::format("\"{}\" has E2E {}; its counter and "
                                                             "CRC are the profile's",
                                                             t.message, "protection")});
    }
    if (t.send) {
      tx->schedule = SendSchedule(send_ticks(*t.send, period_s));
    } else {
      problems.push_back({at + ".cycle", fmt::format("\"{}\" has no GenMsgCycleTime in the DBC; "
                                                     "expected a cycle_ms",
                                                     t.message)});
    }
    if (t.send && t.send->if_active) {
      for (const dbc::Signal& s : message.signals) {
        const std::optional<double> raw =
            spec.database.number_attribute(s.attributes, "GenSigInactiveValue");
        tx->inactive.push_back(raw ? *raw * s.factor + s.offset
                                   : std::numeric_limits<double>::quiet_NaN());
      }
    }
    if (t.simulated) {  // every free signal is an input channel
      tx->node = bus->node_index(t.node);
      const auto header =
          tx->profile ? header_bits(*tx->profile) : std::array<std::uint8_t, kMaxFdLength>{};
      for (std::size_t k = 0; k < message.signals.size(); ++k) {
        const dbc::Signal& s = message.signals[k];
        const bool bound = std::any_of(tx->bindings.begin(), tx->bindings.end(),
                                       [&](const Binding& b) { return b.signal == k; });
        const auto ki = static_cast<std::int32_t>(k);
        if (bound || ki == tx->e2e.counter || ki == tx->e2e.crc ||
            overlaps(header, signal_bits(tx->message->signals[k]))) {
          if (!tx->inactive.empty()) tx->inactive[k] = std::numeric_limits<double>::quiet_NaN();
          continue;
        }
        const dbc::CompiledSignal& c = tx->message->signals[k];
        rt::ChannelSpec channel{.name = signal_channel(spec.name, t.message, s.name),
                                .unit = unit_of(s),
                                .direction = rt::Direction::input,
                                .initial = tx->values[k],
                                .description = fmt::format("{} of {}, sent for {} on {}", s.name,
                                                           t.message, t.node, spec.name)};
        if (c.has_range) {
          channel.min = c.minimum;
          channel.max = c.maximum;
        }
        if (const std::optional<rt::ChannelId> id = add_channel(std::move(channel), at)) {
          tx->bindings.push_back({k, *id});
        }
      }
    }
    bus->tx_.push_back(std::move(tx));
  }

  const auto counter = [&](const char* what, const char* description) {
    return table.add({.name = fmt::format("can.{}.{}", spec.name, what),
                      .unit = "-",
                      .direction = rt::Direction::output,
                      .description = description});
  };
  bus->rx_frames_ = counter("rx_frames", "frames received and applied");
  bus->tx_frames_ = counter("tx_frames", "frames sent");
  bus->rx_dropped_ = counter("rx_dropped",
                             "frames received and refused (unknown id, bad "
                             "length, counter, CRC or E2E)");
  bus->tx_dropped_ = counter("tx_dropped", "frames the transport did not take");
  if (problems.size() != problems_before) return nullptr;

  if (transport) {
    bus->transport_ = std::move(transport);
  } else {
    try {
      bus->transport_ = open_transport(spec.uri, detail::options_for(spec, *bus->db_));
    } catch (const std::exception& e) {
      problems.push_back({"uri", e.what()});
      return nullptr;
    }
  }
  bus->inbox_.resize(256);
  bus->transport_->set_rx_budget(spec.max_rx_frames_per_tick.value_or(
      default_rx_frames_per_tick(period_s, spec.bit_rate, spec.data_bit_rate)));
  return bus;
}

const MessageCounters& CanBus::rx_counters(std::size_t i) const noexcept {
  return rx_[i]->counters;
}

const MessageCounters& CanBus::tx_counters(std::size_t i) const noexcept {
  return tx_[i]->counters;
}

const std::string& CanBus::rx_name(std::size_t i) const noexcept { return rx_[i]->name; }

bool CanBus::rx_from_dut(std::size_t i) const noexcept { return rx_[i]->dut; }

void CanBus::set_fault_hook(bool tx, std::size_t index, MessageFaultHook* hook) noexcept {
  if (tx && index < tx_.size()) tx_[index]->fault = hook;
  if (!tx && index < rx_.size()) rx_[index]->fault = hook;
}

void CanBus::set_node_silence(std::int32_t node, const bool* silent) noexcept {
  for (const std::unique_ptr<Tx>& tx : tx_) {
    if (tx->node == node) tx->node_silent = silent;
  }
}

std::int32_t CanBus::node_index(std::string_view node) const noexcept {
  for (std::size_t i = 0; i < nodes_.size(); ++i) {
    if (nodes_[i] == node) return static_cast<std::int32_t>(i);
  }
  return -1;
}

void CanBus::publish_counters(rt::ChannelTable& table) const noexcept {
  table.set(rx_frames_, static_cast<double>(rx_total_));
  table.set(tx_frames_, static_cast<double>(tx_total_));
  table.set(rx_dropped_, static_cast<double>(rx_drop_total_));
  table.set(tx_dropped_, static_cast<double>(tx_drop_total_));
}

}  // namespace hil::io::can
