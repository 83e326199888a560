#pragma once
// One non-blocking interface for every CAN link, polled by the RT thread at tick
// boundaries (DESIGN.md §3): in the read phase receive() drains what arrived; in the write
// phase send() queues or sends each due frame, and flush() ends the phase (cannelloni sends
// its batch, slcan writes its line buffer). None of them blocks, allocates or throws.
//
// Thread-safety: a Transport is polled by one thread at a time (receive/send/flush); its
// counters() and name() may be read from any thread. Construct and destroy it in the setup
// phase (see open_transport() in transport_factory.hpp).

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <utility>

#include "io/can/can_frame.hpp"
#include "io/can/transport/rx_budget.hpp"
#include "io/can/transport/transport_counters.hpp"

namespace hil::io::can {

/// A received frame and when it arrived: CLOCK_MONOTONIC nanoseconds (for socketcan the
/// kernel's receive timestamp, moved from CLOCK_REALTIME to CLOCK_MONOTONIC).
struct TimedFrame {
  CanFrame frame;
  std::int64_t timestamp_ns = 0;
};

/// What send() did with a frame. Every outcome but ok is also counted under a DropReason.
enum class SendStatus : std::uint8_t {
  ok,             ///< sent, or queued until flush()
  back_pressure,  ///< the link is full (ENOBUFS, EAGAIN, full queue): dropped
  unsupported,    ///< not a valid frame, or one this link cannot carry: dropped
  failed,         ///< I/O error (link down, device gone): dropped, counted in errors too
};

[[nodiscard]] constexpr std::string_view to_string(SendStatus status) noexcept {
  switch (status) {
    case SendStatus::ok:
      return "ok";
    case SendStatus::back_pressure:
      return "back_pressure";
    case SendStatus::unsupported:
      return "unsupported";
    case SendStatus::failed:
      return "failed";
  }
  return "unknown";
}

class Transport {
 public:
  Transport(const Transport&) = delete;
  Transport& operator=(const Transport&) = delete;
  Transport(Transport&&) = delete;
  Transport& operator=(Transport&&) = delete;
  virtual ~Transport() = default;

  /// Polling thread. Moves up to out.size() frames that arrived into `out`, oldest first;
  /// returns how many. What does not fit stays queued for the next call. `tick` is the
  /// executive's tick, recorded in counters().last_rx_tick. With a receive budget
  /// (set_rx_budget) all calls of one tick together hand at most rx_budget() frames; once it
  /// is spent the transport drops a bounded amount of what its link holds (over_budget).
  [[nodiscard]] virtual std::size_t receive(std::span<TimedFrame> out,
                                            std::int64_t tick) noexcept = 0;

  /// Polling thread. Sends `frame` now or queues it until flush(); never waits.
  [[nodiscard]] virtual SendStatus send(const CanFrame& frame, std::int64_t tick) noexcept = 0;

  /// Polling thread. End of the write phase: pushes out whatever send() queued.
  virtual void flush(std::int64_t tick) noexcept = 0;

  /// Setup phase: at most `frames_per_tick` frames per tick (0: no budget). rx_budget.hpp.
  void set_rx_budget(std::size_t frames_per_tick) noexcept { budget_ = RxBudget(frames_per_tick); }
  /// Any thread after setup: the receive budget in frames per tick; 0 without one.
  [[nodiscard]] std::size_t rx_budget() const noexcept {
    return budget_.per_tick() == RxBudget::kUnlimited ? 0 : budget_.per_tick();
  }

  /// Any thread.
  [[nodiscard]] const TransportCounters& counters() const noexcept { return counters_; }
  /// Any thread. The URI the transport was opened with.
  [[nodiscard]] std::string_view name() const noexcept { return name_; }

 protected:
  explicit Transport(std::string name) : name_(std::move(name)) {}
  TransportCounters counters_;
  RxBudget budget_;  ///< the polling thread's; receive() keeps to it

 private:
  std::string name_;
};

}  // namespace hil::io::can
