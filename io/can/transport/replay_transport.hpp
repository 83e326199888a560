#pragma once
// A transport that replays a recording into a CAN bus:
// receive(tick) hands out exactly the frames recorded as received at that tick, and send()
// hands every frame the simulator produces to a checker instead of a wire. Frames are
// loaded at setup, sorted by tick. RT-safe after setup (no allocation, no locks); one thread.

#include <cstdint>
#include <functional>
#include <span>
#include <vector>

#include "io/can/transport/transport.hpp"

namespace hil::io::can {

struct TickFrame {
  std::int64_t tick = 0;
  CanFrame frame;
};

class ReplayTransport final : public Transport {
 public:
  /// Called for every frame sent, with its tick (the checker compares it with the record).
  using SentFrame = std::function<void(std::int64_t tick, const CanFrame& frame)>;

  /// `received` in tick order (stable within a tick).
  ReplayTransport(std::string name, std::vector<TickFrame> received, SentFrame on_sent);

  [[nodiscard]] std::size_t receive(std::span<TimedFrame> out, std::int64_t tick) noexcept override;
  [[nodiscard]] SendStatus send(const CanFrame& frame, std::int64_t tick) noexcept override;
  void flush(std::int64_t /*tick*/) noexcept override {}

  /// Recorded frames not handed out because their tick had passed (none in a faithful replay).
  [[nodiscard]] std::size_t skipped() const noexcept { return skipped_; }

 private:
  std::vector<TickFrame> received_;
  std::size_t next_ = 0;
  std::size_t skipped_ = 0;
  SentFrame on_sent_;
};

}  // namespace hil::io::can
