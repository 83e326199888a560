#pragma once
// Counters of one CAN transport: frames and payload bytes each way, errors, drops by
// reason, bus state and the last tick that saw traffic. Written by the one thread that polls
// the transport (the RT thread), readable from any other (the console) without tearing.
//
// Memory order: every field is a std::atomic written by exactly one thread (the poller) with
// relaxed load + relaxed store, read with relaxed loads. Each counter is monotonic and read
// on its own, so no ordering between fields is promised: a snapshot may show rx_frames of
// tick k with rx_bytes of tick k-1. That is the contract of a statistics panel; nothing may
// derive a decision from two fields at once. (The only counter with several writers, the
// virtual bus's "your queue was full", lives in the bus and is copied in by the poller.)

#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "io/can/can_frame.hpp"

namespace hil::io::can {

/// Why a frame (tx) or a packet/line (rx) was dropped.
enum class DropReason : std::uint8_t {
  back_pressure,    ///< tx: the link is full (ENOBUFS, EAGAIN, full buffer); frame dropped
  unsupported,      ///< tx: invalid frame, or one this link cannot carry (FD on classic)
  send_failed,      ///< tx: I/O error (link down, device gone); also counted in errors
  peer_queue_full,  ///< tx, virtual: another endpoint's receive queue was full
  queue_full,       ///< rx, virtual: this endpoint's receive queue was full
  malformed,        ///< rx: a packet or line that does not parse (bad version, length, id…)
  truncated,        ///< rx: a packet shorter than its header or frames say
  oversized,        ///< rx: a datagram larger than the receive limit
  unknown_peer,     ///< rx: a datagram from an address that is not the configured peer
  overlong_line,    ///< rx, slcan: a line longer than any valid line
  kernel_overflow,  ///< rx: frames (socketcan) or datagrams (cannelloni) the kernel dropped
                    ///< because the socket's queue was full (SO_RXQ_OVFL)
  over_budget,      ///< rx: frames beyond the tick's receive budget (rx_budget.hpp), never
                    ///< handed to the tick
};
inline constexpr std::size_t kDropReasonCount = 12;

/// Short snake_case name of a drop reason, for the console and logs.
[[nodiscard]] std::string_view to_string(DropReason reason) noexcept;

/// CAN controller error state (ISO 11898-1 fault confinement), as far as the link reports it.
enum class BusState : std::uint8_t {
  unknown,        ///< the link does not report it (virtual, cannelloni, slcan) or not yet
  error_active,   ///< normal
  error_warning,  ///< an error counter reached 96
  error_passive,  ///< an error counter reached 128
  bus_off,        ///< transmit error counter passed 255: the controller left the bus
};

[[nodiscard]] std::string_view to_string(BusState state) noexcept;

/// A plain copy of TransportCounters (see snapshot()).
struct TransportStats {
  std::uint64_t rx_frames = 0, tx_frames = 0;    ///< frames received / accepted by send()
  std::uint64_t rx_bytes = 0, tx_bytes = 0;      ///< CAN payload bytes (RTR frames carry 0)
  std::uint64_t rx_packets = 0, tx_packets = 0;  ///< datagrams (cannelloni), lines (slcan)
  std::uint64_t errors = 0;  ///< I/O errors and slcan BEL replies (error frames: below)
  std::array<std::uint64_t, kDropReasonCount> drops{};
  std::uint64_t sequence_gaps = 0;  ///< cannelloni: packets whose sequence number skipped
  std::uint64_t sequence_lost = 0;  ///< cannelloni: sequence numbers skipped in total
  std::uint64_t sequence_late = 0;  ///< cannelloni: packets older than one already seen
  std::uint64_t peer_commands = 0;  ///< slcan: command lines from the other side, acknowledged
  std::uint64_t error_frames = 0;   ///< socketcan: error frames received
  std::uint64_t bus_off_events = 0, error_passive_events = 0, error_warning_events = 0;
  std::uint64_t restarts = 0;  ///< socketcan: "controller restarted" error frames
  BusState bus_state = BusState::unknown;
  std::int64_t last_rx_tick = -1;  ///< tick of the last receive() that returned a frame
  std::int64_t last_tx_tick = -1;  ///< tick of the last send() that accepted a frame

  [[nodiscard]] std::uint64_t drop_count(DropReason r) const noexcept {
    return drops[static_cast<std::size_t>(r)];
  }
  [[nodiscard]] std::uint64_t total_drops() const noexcept;
};

/// The live counters. Writer: the polling thread only. Readers: any thread (snapshot()).
class TransportCounters {
 public:
  using Counter = std::atomic<std::uint64_t>;

  /// Writer only: adds `n` to `counter` (single writer, so load + store, no locked RMW).
  static void add(Counter& counter, std::uint64_t n = 1) noexcept {
    counter.store(counter.load(std::memory_order_relaxed) + n, std::memory_order_relaxed);
  }
  /// Writer only.
  void drop(DropReason reason, std::uint64_t n = 1) noexcept {
    add(drops[static_cast<std::size_t>(reason)], n);
  }
  /// Writer only: records traffic in `tick`.
  void received(std::uint64_t frames, std::uint64_t bytes, std::int64_t tick) noexcept;
  void sent(std::uint64_t frames, std::uint64_t bytes, std::int64_t tick) noexcept;

  /// Any thread: relaxed copy of every field (no tearing within a field; see the file note).
  [[nodiscard]] TransportStats snapshot() const noexcept;

  Counter rx_frames{0}, tx_frames{0}, rx_bytes{0}, tx_bytes{0}, rx_packets{0}, tx_packets{0};
  Counter errors{0};
  std::array<Counter, kDropReasonCount> drops{};
  Counter sequence_gaps{0}, sequence_lost{0}, sequence_late{0};
  Counter peer_commands{0};
  Counter error_frames{0}, bus_off_events{0}, error_passive_events{0}, error_warning_events{0};
  Counter restarts{0};
  std::atomic<BusState> bus_state{BusState::unknown};
  std::atomic<std::int64_t> last_rx_tick{-1}, last_tx_tick{-1};
};

/// Payload bytes a frame carries on the bus: its length, 0 for a remote request.
[[nodiscard]] constexpr std::uint64_t carried_bytes(const CanFrame& frame) noexcept {
  return frame.remote() ? 0 : frame.length;
}

}  // namespace hil::io::can
