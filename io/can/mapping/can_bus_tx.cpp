// CanBus's write phase: each sent message's schedule, encoding (alive counter, CRC, E2E),
// faults and transmission (docs/can.md "Transmitted messages", "Rest-bus simulation").

#include <cmath>

#include "io/can/mapping/can_bus.hpp"
#include "io/can/mapping/can_bus_state.hpp"

namespace hil::io::can {
namespace {

/// Equal, or both NaN: a NaN channel is no change every tick.
bool same(double a, double b) noexcept { return a == b || (std::isnan(a) && std::isnan(b)); }

}  // namespace

void CanBus::write(std::int64_t tick, rt::ChannelTable& table) noexcept {
  CanFrame held;
  for (const std::unique_ptr<Tx>& p : tx_) {
    Tx& tx = *p;
    while (tx.fault != nullptr && tx.fault->due(tick, held)) transmit(tx, held, tick);
    if (due(tx, tick, table)) send(tx, tick);
  }
  transport_->flush(tick);
  publish_counters(table);
}

bool CanBus::due(Tx& tx, std::int64_t tick, const rt::ChannelTable& table) noexcept {
  const std::int64_t fault_cycle = tx.fault != nullptr ? tx.fault->cycle_ticks() : 0;
  if (!tx.schedule.watches_values()) {  // cyclic only: the channels matter when it is due
    if (!tx.schedule.due(tick, false, false, fault_cycle)) return false;
    for (const detail::Binding& b : tx.bindings) tx.values[b.signal] = table.get(b.channel);
    return true;
  }
  bool changed = false;
  for (const detail::Binding& b : tx.bindings) {
    const double v = table.get(b.channel);
    changed = changed || !same(v, tx.values[b.signal]);
    tx.values[b.signal] = v;
  }
  bool active = false;
  for (std::size_t k = 0; k < tx.inactive.size(); ++k) {
    active = active || (!std::isnan(tx.inactive[k]) && !same(tx.values[k], tx.inactive[k]));
  }
  return tx.schedule.due(tick, changed, active, fault_cycle);
}

void CanBus::send(Tx& tx, std::int64_t tick) noexcept {
  std::copy(tx.values.begin(), tx.values.end(), tx.physical.begin());
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
  std::int32_t crc_byte = tx.e2e.crc >= 0 ? static_cast<std::int32_t>(tx.e2e.crc_byte) : -1;
  if (tx.profile) {
    const std::uint32_t modulo = e2e::counter_modulo(*tx.profile);
    auto counter =
        static_cast<std::uint32_t>((e2e::initial_counter(*tx.profile) + tx.sent) % modulo);
    if (tx.fault != nullptr) counter = tx.fault->counter(counter, modulo) % modulo;
    std::uint16_t data_id = 0;
    if (tx.fault != nullptr && tx.fault->data_id(data_id)) {  // protected as another message
      e2e::ProfileSpec wrong = *tx.profile;
      wrong.data_id = data_id;
      wrong.data_id_list.fill(static_cast<std::uint8_t>(data_id));
      e2e::protect(wrong, std::span<std::uint8_t>(frame.data.data(), frame.length), counter);
    } else {
      e2e::protect(*tx.profile, std::span<std::uint8_t>(frame.data.data(), frame.length), counter);
    }
    crc_byte = static_cast<std::int32_t>(e2e::header_layout(*tx.profile).crc.begin / 8);
  } else {
    detail::write_crc(tx.e2e, frame);
  }
  MessageCounters& c = tx.counters;
  c.saturated.fetch_add(encoded.saturated + encoded.not_a_number, std::memory_order_relaxed);
  ++tx.sent;
  if (tx.fault != nullptr) {
    tx.fault->after_crc(frame, crc_byte);
    const FrameFate fate = tx.fault->fate(tick, frame);
    if (fate == FrameFate::drop || fate == FrameFate::held) return;
    if (fate == FrameFate::twice) transmit(tx, frame, tick);
  }
  transmit(tx, frame, tick);
}

SendStatus CanBus::send_unmapped(const CanFrame& frame, std::int64_t tick) noexcept {
  if (silent_ != nullptr && *silent_) return SendStatus::ok;  // silenced: nothing goes out
  if (tap_ != nullptr) {
    (void)tap_->try_push({.tick = tick, .bus = index_, .transmitted = true, .frame = frame});
  }
  const SendStatus status = transport_->send(frame, tick);
  ++(status == SendStatus::ok ? tx_total_ : tx_drop_total_);
  return status;
}

void CanBus::transmit(Tx& tx, const CanFrame& frame, std::int64_t tick) noexcept {
  if (silent_ != nullptr && *silent_) return;  // the bus is silenced: nothing goes out
  if (tx.node_silent != nullptr && *tx.node_silent) return;  // its node is silenced
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

}  // namespace hil::io::can
