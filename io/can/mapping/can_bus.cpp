#include "io/can/mapping/can_bus.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <exception>
#include <limits>

#include "io/can/mapping/can_bus_build.hpp"
#include "io/can/mapping/e2e.hpp"
#include "io/can/transport/transport_factory.hpp"

namespace hil::io::can {

using detail::Binding;

struct CanBus::Rx {
  const dbc::CompiledMessage* message = nullptr;
  std::vector<Binding> bindings;
  std::vector<dbc::SignalValue> values;  // one per signal of the message
  detail::E2e e2e;
  std::int64_t timeout_ticks = 0;
  std::int64_t hold_ticks = 0;
  std::int64_t last_tick = 0;  // last valid frame; the start counts as one
  std::optional<std::uint32_t> last_counter;
  bool missing = false;
  std::vector<std::pair<rt::ChannelId, double>> safe;
  rt::ChannelId status{};
  MessageCounters counters;
  MessageFaultHook* fault = nullptr;
};

struct CanBus::Tx {
  const dbc::CompiledMessage* message = nullptr;
  std::vector<Binding> bindings;
  std::vector<double> physical;  // one per signal, start values until set
  detail::E2e e2e;
  std::int64_t cycle_ticks = 1;
  std::int64_t next_due = 0;
  std::uint64_t sent = 0;  // alive counter source
  MessageCounters counters;
  MessageFaultHook* fault = nullptr;
};

CanBus::~CanBus() = default;

std::unique_ptr<CanBus> CanBus::create(const CanBusSpec& spec, rt::ChannelTable& table,
                                       double period_s, std::uint8_t index,
                                       std::vector<MappingProblem>& problems,
                                       std::unique_ptr<Transport> transport) {
  const std::size_t problems_before = problems.size();
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
  const detail::Resolver resolve(spec, table, problems);
  bus->rx_of_message_.assign(spec.database.messages.size(), -1);

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
    auto rx = std::make_unique<Rx>();
    rx->message = &bus->db_->messages()[static_cast<std::size_t>(m)];
    rx->bindings = resolve.bindings(m, r.signals, at, rt::Direction::input);
    rx->values.resize(rx->message->signals.size());
    rx->e2e = resolve.e2e(m, r.alive_counter, r.crc, r.crc_data_id, at);
    const std::optional<std::int64_t> cycle = resolve.cycle_ticks(m, std::nullopt, period_s);
    if (r.timeout_s) {
      rx->timeout_ticks = static_cast<std::int64_t>(std::ceil(*r.timeout_s / period_s - 1e-9));
    } else if (cycle) {
      rx->timeout_ticks = 3 * *cycle;  // default 3 cycle times
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
        {.name = fmt::format("can.{}.{}.timeout", spec.name, detail::snake_case(r.message)),
         .unit = "-",
         .direction = rt::Direction::output,
         .description = fmt::format("1 while {} is missing on {}", r.message, spec.name)});
    bus->rx_of_message_[static_cast<std::size_t>(m)] = static_cast<std::int32_t>(bus->rx_.size());
    bus->rx_.push_back(std::move(rx));
  }

  for (std::size_t i = 0; i < spec.tx.size(); ++i) {
    const TxMessageSpec& t = spec.tx[i];
    const std::string at = fmt::format("tx[{}]", i);
    const std::int32_t m = resolve.message(t.message, at + ".message");
    if (m < 0) continue;
    auto tx = std::make_unique<Tx>();
    tx->message = &bus->db_->messages()[static_cast<std::size_t>(m)];
    tx->bindings = resolve.bindings(m, t.signals, at, std::nullopt);
    tx->physical = detail::start_values(spec.database.messages[static_cast<std::size_t>(m)]);
    tx->e2e = resolve.e2e(m, t.alive_counter, t.crc, t.crc_data_id, at);
    if (const std::optional<std::int64_t> cycle = resolve.cycle_ticks(m, t.cycle_s, period_s)) {
      tx->cycle_ticks = *cycle;
    } else {
      problems.push_back({at + ".cycle", fmt::format("\"{}\" has no GenMsgCycleTime in the DBC; "
                                                     "expected a cycle_ms",
                                                     t.message)});
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
                             "length, counter or CRC)");
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
  return bus;
}

const MessageCounters& CanBus::rx_counters(std::size_t i) const noexcept {
  return rx_[i]->counters;
}

const MessageCounters& CanBus::tx_counters(std::size_t i) const noexcept {
  return tx_[i]->counters;
}

void CanBus::set_fault_hook(bool tx, std::size_t index, MessageFaultHook* hook) noexcept {
  if (tx && index < tx_.size()) tx_[index]->fault = hook;
  if (!tx && index < rx_.size()) rx_[index]->fault = hook;
}

void CanBus::read(std::int64_t tick, rt::ChannelTable& table) noexcept {
  CanFrame held;
  for (const std::unique_ptr<Rx>& rx : rx_) {  // frames a delay fault held, now due
    while (rx->fault != nullptr && rx->fault->due(tick, held)) take(*rx, held, tick, table);
  }
  for (;;) {
    const std::size_t n = transport_->receive(inbox_, tick);
    for (std::size_t i = 0; i < n; ++i) receive(inbox_[i].frame, tick, table);
    if (n < inbox_.size()) break;
  }
  watch_timeouts(tick, table);
}

void CanBus::receive(const CanFrame& frame, std::int64_t tick, rt::ChannelTable& table) noexcept {
  if (tap_ != nullptr) (void)tap_->try_push({.tick = tick, .bus = index_, .frame = frame});
  const std::int32_t m =
      frame.error() || frame.remote() ? -1 : db_->find(frame.id, frame.extended());
  const std::int32_t r = m < 0 ? -1 : rx_of_message_[static_cast<std::size_t>(m)];
  if (r < 0) {
    unknown_.fetch_add(1, std::memory_order_relaxed);
    ++rx_drop_total_;
    return;
  }
  Rx& rx = *rx_[static_cast<std::size_t>(r)];
  const FrameFate fate = rx.fault != nullptr ? rx.fault->fate(tick, frame) : FrameFate::pass;
  if (fate == FrameFate::drop || fate == FrameFate::held) return;
  take(rx, frame, tick, table);
  if (fate == FrameFate::twice) take(rx, frame, tick, table);
}

void CanBus::take(Rx& rx, const CanFrame& frame, std::int64_t tick,
                  rt::ChannelTable& table) noexcept {
  MessageCounters& c = rx.counters;
  const auto refuse = [&](std::atomic<std::uint64_t>& why) {
    why.fetch_add(1, std::memory_order_relaxed);
    c.errors.fetch_add(1, std::memory_order_relaxed);
    c.drops.fetch_add(1, std::memory_order_relaxed);
    ++rx_drop_total_;
  };
  if (frame.fd() != rx.message->fd || frame.length != rx.message->frame_length) {
    return refuse(c.length_errors);
  }
  const std::span<const std::uint8_t> payload = frame.payload();
  if (!detail::check_crc(rx.e2e, payload)) return refuse(c.crc_errors);
  std::optional<std::uint32_t> counter;
  if (rx.e2e.counter >= 0) {
    std::int64_t raw = 0;
    (void)dbc::decode_raw(rx.message->signals[static_cast<std::size_t>(rx.e2e.counter)], payload,
                          raw);
    counter = static_cast<std::uint32_t>(raw);
    const CounterCheck check = check_counter(rx.last_counter, *counter, rx.e2e.counter_bits);
    if (check == CounterCheck::repeat) return refuse(c.counter_errors);
    if (check == CounterCheck::jump) c.counter_jumps.fetch_add(1, std::memory_order_relaxed);
  }
  (void)dbc::decode_message(*rx.message, payload, rx.values);
  for (const Binding& b : rx.bindings) {
    if (rx.values[b.signal].present) table.set(b.channel, rx.values[b.signal].physical);
  }
  rx.last_counter = counter;
  rx.last_tick = tick;
  if (rx.missing) {
    rx.missing = false;  // frames resumed: recovery
    table.set(rx.status, 0.0);
  }
  c.frames.fetch_add(1, std::memory_order_relaxed);
  c.bytes.fetch_add(frame.length, std::memory_order_relaxed);
  c.last_tick.store(tick, std::memory_order_relaxed);
  c.last_payload.store(frame.payload());
  ++rx_total_;
}

void CanBus::watch_timeouts(std::int64_t tick, rt::ChannelTable& table) noexcept {
  for (const std::unique_ptr<Rx>& p : rx_) {
    Rx& rx = *p;
    const std::int64_t silent = tick - rx.last_tick;
    if (silent <= rx.timeout_ticks) continue;
    if (!rx.missing) {
      rx.missing = true;
      rx.counters.timeouts.fetch_add(1, std::memory_order_relaxed);
      table.set(rx.status, 1.0);
    }
    if (silent > rx.timeout_ticks + rx.hold_ticks) {
      for (const auto& [channel, value] : rx.safe) table.set(channel, value);
    }
  }
}

void CanBus::write(std::int64_t tick, rt::ChannelTable& table) noexcept {
  CanFrame held;
  for (const std::unique_ptr<Tx>& p : tx_) {
    Tx& tx = *p;
    while (tx.fault != nullptr && tx.fault->due(tick, held)) transmit(tx, held, tick);
    if (tick < tx.next_due) continue;
    send(tx, tick, table);
    const std::int64_t faulted = tx.fault != nullptr ? tx.fault->cycle_ticks() : 0;
    const std::int64_t cycle = faulted > 0 ? faulted : tx.cycle_ticks;
    tx.next_due += cycle;
    if (tx.next_due <= tick) tx.next_due = tick + cycle;  // after skipped ticks
  }
  transport_->flush(tick);
  publish_counters(table);
}

void CanBus::send(Tx& tx, std::int64_t tick, const rt::ChannelTable& table) noexcept {
  for (const Binding& b : tx.bindings) tx.physical[b.signal] = table.get(b.channel);
  if (tx.fault != nullptr) tx.fault->before_encode(tx.physical);
  if (tx.e2e.counter >= 0) {
    const dbc::CompiledSignal& s = tx.message->signals[static_cast<std::size_t>(tx.e2e.counter)];
    const auto modulo = static_cast<std::uint32_t>(std::uint64_t{1} << tx.e2e.counter_bits);
    auto raw = static_cast<std::uint32_t>(tx.sent % modulo);
    if (tx.fault != nullptr) raw = tx.fault->counter(raw, modulo) % modulo;
    tx.physical[static_cast<std::size_t>(tx.e2e.counter)] =
        static_cast<double>(raw) * s.factor + s.offset;
  }
  CanFrame frame;
  const dbc::EncodeResult encoded = dbc::encode_frame(*tx.message, tx.physical, frame);
  detail::write_crc(tx.e2e, frame);
  MessageCounters& c = tx.counters;
  c.saturated.fetch_add(encoded.saturated + encoded.not_a_number, std::memory_order_relaxed);
  ++tx.sent;
  if (tx.fault != nullptr) {
    tx.fault->after_crc(frame, tx.e2e.crc >= 0 ? static_cast<std::int32_t>(tx.e2e.crc_byte) : -1);
    const FrameFate fate = tx.fault->fate(tick, frame);
    if (fate == FrameFate::drop || fate == FrameFate::held) return;
    if (fate == FrameFate::twice) transmit(tx, frame, tick);
  }
  transmit(tx, frame, tick);
}

void CanBus::transmit(Tx& tx, const CanFrame& frame, std::int64_t tick) noexcept {
  if (silent_ != nullptr && *silent_) return;  // the bus is silenced: nothing goes out
  MessageCounters& c = tx.counters;
  if (tap_ != nullptr) {
    (void)tap_->try_push({.tick = tick, .bus = index_, .transmitted = true, .frame = frame});
  }
  if (transport_->send(frame, tick) != SendStatus::ok) {
    c.drops.fetch_add(1, std::memory_order_relaxed);
    ++tx_drop_total_;
    return;
  }
  c.frames.fetch_add(1, std::memory_order_relaxed);
  c.bytes.fetch_add(frame.length, std::memory_order_relaxed);
  c.last_tick.store(tick, std::memory_order_relaxed);
  c.last_payload.store(frame.payload());
  ++tx_total_;
}

void CanBus::publish_counters(rt::ChannelTable& table) const noexcept {
  table.set(rx_frames_, static_cast<double>(rx_total_));
  table.set(tx_frames_, static_cast<double>(tx_total_));
  table.set(rx_dropped_, static_cast<double>(rx_drop_total_));
  table.set(tx_dropped_, static_cast<double>(tx_drop_total_));
}

}  // namespace hil::io::can
