#include "io/can/transport/transport_counters.hpp"

namespace hil::io::can {
namespace {

constexpr auto kRelaxed = std::memory_order_relaxed;

}  // namespace

std::string_view to_string(DropReason reason) noexcept {
  switch (reason) {
    case DropReason::kBackPressure:
      return "back_pressure";
    case DropReason::kUnsupported:
      return "unsupported";
    case DropReason::kSendFailed:
      return "send_failed";
    case DropReason::kPeerQueueFull:
      return "peer_queue_full";
    case DropReason::kQueueFull:
      return "queue_full";
    case DropReason::kMalformed:
      return "malformed";
    case DropReason::kTruncated:
      return "truncated";
    case DropReason::kOversized:
      return "oversized";
    case DropReason::kUnknownPeer:
      return "unknown_peer";
    case DropReason::kOverlongLine:
      return "overlong_line";
    case DropReason::kKernelOverflow:
      return "kernel_overflow";
  }
  return "unknown";
}

std::string_view to_string(BusState state) noexcept {
  switch (state) {
    case BusState::kUnknown:
      return "unknown";
    case BusState::kErrorActive:
      return "error_active";
    case BusState::kErrorWarning:
      return "error_warning";
    case BusState::kErrorPassive:
      return "error_passive";
    case BusState::kBusOff:
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
