#pragma once
// virtual:NAME — an in-process CAN bus for tests and the built-in demo. Every
// endpoint attached to the same NAME receives what the others send (never its own frames),
// across threads: each endpoint owns a bounded lock-free receive queue
// (boost::lockfree::queue, multi-producer); a sender pushes into every other endpoint's
// queue, and a full queue drops the frame and counts it on both sides.
//
// Thread-safety: one thread polls each endpoint (receive/send/flush); different endpoints of
// one bus may be polled from different threads. Construction and destruction (attach and
// detach) are setup-phase operations, safe from any thread, even while other endpoints of
// the bus are being polled.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>

#include "io/can/transport/transport.hpp"
#include "io/can/transport/transport_spec.hpp"

namespace hil::io::can {

namespace detail {
class VirtualBus;
}  // namespace detail

/// Endpoints one virtual bus holds at a time.
inline constexpr std::size_t kMaxVirtualEndpoints = 16;
/// Largest receive queue (boost::lockfree's 16-bit node index, less its dummy node).
inline constexpr std::size_t kMaxVirtualQueueFrames = 65534;

class VirtualTransport final : public Transport {
 public:
  /// Setup phase: attaches to the bus `bus_name` (created on first use). Throws
  /// std::invalid_argument for a bad queue size, std::runtime_error when the bus is full.
  VirtualTransport(std::string uri, std::string_view bus_name, const VirtualSpec& options);
  /// Setup phase: detaches; frames still queued for this endpoint are discarded.
  ~VirtualTransport() override;
  VirtualTransport(const VirtualTransport&) = delete;
  VirtualTransport& operator=(const VirtualTransport&) = delete;
  VirtualTransport(VirtualTransport&&) = delete;
  VirtualTransport& operator=(VirtualTransport&&) = delete;

  /// Timestamps are the sender's CLOCK_MONOTONIC at send(). Past the tick's receive budget it
  /// drops at most one queue's worth of frames (over_budget).
  [[nodiscard]] std::size_t receive(std::span<TimedFrame> out, std::int64_t tick) noexcept override;
  /// back_pressure when some other endpoint's queue was full (the others got the frame).
  [[nodiscard]] SendStatus send(const CanFrame& frame, std::int64_t tick) noexcept override;
  /// Nothing to do: send() delivers at once.
  void flush(std::int64_t tick) noexcept override;

 private:
  std::shared_ptr<detail::VirtualBus> bus_;  // shared by the endpoints: it outlives them all
  std::size_t slot_;
  std::size_t queue_frames_;  // the most frames dropped over budget per tick: one queue's worth
  std::uint64_t overflow_seen_ = 0;  // the slot's overflow count already copied to counters_
};

}  // namespace hil::io::can
