#include "io/can/transport/replay_transport.hpp"

#include <utility>

namespace hil::io::can {

ReplayTransport::ReplayTransport(std::string name, std::vector<TickFrame> received,
                                 SentFrame on_sent)
    : Transport(std::move(name)), received_(std::move(received)), on_sent_(std::move(on_sent)) {}

std::size_t ReplayTransport::receive(std::span<TimedFrame> out, std::int64_t tick) noexcept {
  while (next_ < received_.size() && received_[next_].tick < tick) {
    ++next_;  // recorded for a tick that did not run here (the replay started later)
    ++skipped_;
  }
  std::size_t n = 0;
  while (n < out.size() && next_ < received_.size() && received_[next_].tick == tick) {
    out[n++] = {.frame = received_[next_].frame, .timestamp_ns = 0};
    counters_.received(1, received_[next_].frame.length, tick);
    ++next_;
  }
  return n;
}

SendStatus ReplayTransport::send(const CanFrame& frame, std::int64_t tick) noexcept {
  counters_.sent(1, frame.length, tick);
  if (on_sent_) on_sent_(tick, frame);
  return SendStatus::ok;
}

}  // namespace hil::io::can
