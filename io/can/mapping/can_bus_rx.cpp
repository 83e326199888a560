// CanBus's read phase: drain the transport, check and decode each frame, watch the timeouts
// and the E2E cycles (docs/can.md "Received messages").

#include "io/can/e2e/alive_counter.hpp"
#include "io/can/mapping/can_bus.hpp"
#include "io/can/mapping/can_bus_state.hpp"

namespace hil::io::can {

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
    if (unmapped_ != nullptr && unmapped_->take(frame, tick)) {
      ++rx_total_;
      return;
    }
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

bool CanBus::check_e2e(Rx& rx, std::span<const std::uint8_t> payload,
                       rt::ChannelTable& table) noexcept {
  e2e::Status status = e2e::check(*rx.profile, rx.check, payload);
  MessageCounters& c = rx.counters;
  // The first good frame starts the sequence: the profiles call it INITIAL (P01, P02) or see a
  // step from their initial counter (P22) and map it to WRONG_SEQUENCE; its data is good.
  if (status == e2e::Status::wrong_sequence && c.frames.load(std::memory_order_relaxed) == 0) {
    status = e2e::Status::ok;
  }
  table.set(*rx.e2e_status, static_cast<double>(status));
  switch (status) {
    case e2e::Status::ok:
      return true;
    case e2e::Status::repeated:
      c.counter_errors.fetch_add(1, std::memory_order_relaxed);
      break;
    case e2e::Status::wrong_sequence:
      c.wrong_sequence.fetch_add(1, std::memory_order_relaxed);
      break;
    case e2e::Status::error:
      c.crc_errors.fetch_add(1, std::memory_order_relaxed);
      break;
    case e2e::Status::no_data:
      c.no_data.fetch_add(1, std::memory_order_relaxed);
      return false;
  }
  c.errors.fetch_add(1, std::memory_order_relaxed);
  c.drops.fetch_add(1, std::memory_order_relaxed);
  ++rx_drop_total_;
  return false;
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
  if (rx.profile) {
    rx.no_data_at = tick + rx.cycle_ticks + rx.cycle_ticks / 2;
    if (!check_e2e(rx, payload, table)) return;
  }
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
  for (const detail::Binding& b : rx.bindings) {
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
    if (rx.profile && rx.cycle_ticks > 0 && tick >= rx.no_data_at) {  // a cycle without a frame
      (void)check_e2e(rx, {}, table);
      rx.no_data_at = tick + rx.cycle_ticks;
    }
    if (rx.timeout_ticks < 0) continue;
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

}  // namespace hil::io::can
