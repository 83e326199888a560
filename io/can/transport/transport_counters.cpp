#include "io/can/transport/transport_counters.hpp"

namespace hil::io::can {
namespace {

constexpr auto kRelaxed = std::memory_order_relaxed;

}  // namespace

std::string_view to_string(DropReason reason) noexcept {
  switch (reason) {
    case DropReason::back_pressure:
      return "back_pressure";
    case DropReason::unsupported:
      return "unsupported";
    case DropReason::send_failed:
      return "send_failed";
    case DropReason::peer_queue_full:
      return "peer_queue_full";
    case DropReason::queue_full:
      return "queue_full";
    case DropReason::malformed:
      return "malformed";
    case DropReason::truncated:
      return "truncated";
    case DropReason::oversized:
      return "oversized";
    case DropReason::unknown_peer:
      return "unknown_peer";
    case DropReason::overlong_line:
      return "overlong_line";
    case DropReason::kernel_overflow:
      return "kernel_overflow";
    case DropReason::over_budget:
      return "over_budget";
  }
  return "unknown";
}

std::string_view to_string(BusState state) noexcept {
  switch (state) {
    case BusState::unknown:
      return "unknown";
    case BusState::error_active:
      return "error_active";
    case BusState::error_warning:
      return "error_warning";
    case BusState::error_passive:
      return "error_passive";
    case BusState::bus_off:
      return "bus_off";
  }
  return "unknown";
}

std::uint64_t TransportStats::total_drops() const noexcept {
  std::uint64_t total = 0;
  for (const std::uint64_t n : drops) total += n;
  return total;
}

void TransportCounters::received(std::uint64_t frames, std::uint64_t bytes,
                                 std::int64_t tick) noexcept {
  if (frames == 0) return;
  add(rx_frames, frames);
  add(rx_bytes, bytes);
  last_rx_tick.store(tick, kRelaxed);
}

void TransportCounters::sent(std::uint64_t frames, std::uint64_t bytes,
                             std::int64_t tick) noexcept {
  if (frames == 0) return;
  add(tx_frames, frames);
  add(tx_bytes, bytes);
  last_tx_tick.store(tick, kRelaxed);
}

TransportStats TransportCounters::snapshot() const noexcept {
  TransportStats s;
  s.rx_frames = rx_frames.load(kRelaxed);
  s.tx_frames = tx_frames.load(kRelaxed);
  s.rx_bytes = rx_bytes.load(kRelaxed);
  s.tx_bytes = tx_bytes.load(kRelaxed);
  s.rx_packets = rx_packets.load(kRelaxed);
  s.tx_packets = tx_packets.load(kRelaxed);
  s.errors = errors.load(kRelaxed);
  for (std::size_t i = 0; i < kDropReasonCount; ++i) s.drops[i] = drops[i].load(kRelaxed);
  s.sequence_gaps = sequence_gaps.load(kRelaxed);
  s.sequence_lost = sequence_lost.load(kRelaxed);
  s.sequence_late = sequence_late.load(kRelaxed);
  s.peer_commands = peer_commands.load(kRelaxed);
  s.error_frames = error_frames.load(kRelaxed);
  s.bus_off_events = bus_off_events.load(kRelaxed);
  s.error_passive_events = error_passive_events.load(kRelaxed);
  s.error_warning_events = error_warning_events.load(kRelaxed);
  s.restarts = restarts.load(kRelaxed);
  s.bus_state = bus_state.load(kRelaxed);
  s.last_rx_tick = last_rx_tick.load(kRelaxed);
  s.last_tx_tick = last_tx_tick.load(kRelaxed);
  return s;
}

}  // namespace hil::io::can
