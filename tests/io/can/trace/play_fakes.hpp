#pragma once
// A simulated clock and a scripted transport for the trace player's tests: time moves only
// when the player sleeps or a send "takes" time, so deadlines and lateness are exact.

#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <vector>

#include "io/can/trace/trace.hpp"
#include "io/can/transport/transport.hpp"
#include "rt_core/clock.hpp"

namespace hil::io::can::test {

/// Starts at `start`; sleep_until() jumps to the deadline (never back) and records it.
class FakeClock final : public rt::Clock {
 public:
  explicit FakeClock(rt::Nanoseconds start = 1'000 * rt::kSecond) : now_(start) {}
  [[nodiscard]] rt::Nanoseconds now() noexcept override { return now_; }
  void sleep_until(rt::Nanoseconds deadline) noexcept override {
    sleeps.push_back(deadline);
    if (deadline > now_) now_ = deadline;
  }
  void advance(rt::Nanoseconds by) noexcept { now_ += by; }

  std::vector<rt::Nanoseconds> sleeps;  // reserve() before a run that must not allocate

 private:
  rt::Nanoseconds now_;
};

/// A transport whose send() takes `send_cost` of the fake clock and answers what `script`
/// says (ok when it has no answer); it records each accepted frame and when it was sent.
class FakeTransport final : public Transport {
 public:
  FakeTransport(FakeClock& clock, rt::Nanoseconds send_cost, std::string name = "fake:")
      : Transport(std::move(name)), clock_(clock), send_cost_(send_cost) {}

  [[nodiscard]] std::size_t receive(std::span<TimedFrame> /*out*/,
                                    std::int64_t /*tick*/) noexcept override {
    return 0;
  }
  [[nodiscard]] SendStatus send(const CanFrame& frame, std::int64_t /*tick*/) noexcept override {
    clock_.advance(send_cost_);
    ++attempts;
    if (on_send) on_send(sent.size());
    const SendStatus status = next_status < script.size() ? script[next_status++] : SendStatus::ok;
    if (status == SendStatus::ok) sent.push_back({.frame = frame, .timestamp_ns = clock_.now()});
    return status;
  }
  void flush(std::int64_t /*tick*/) noexcept override { ++flushes; }

  std::vector<SendStatus> script;  // answers to the first sends, in order
  std::function<void(std::size_t frames_sent)> on_send;
  std::vector<TimedFrame> sent;
  std::size_t attempts = 0;
  std::size_t flushes = 0;

 private:
  FakeClock& clock_;
  rt::Nanoseconds send_cost_;
  std::size_t next_status = 0;
};

/// A trace of `count` classic frames on `interface`, `gap` apart, ids 0x100 + i.
inline void add_frames(Trace& trace, std::size_t count, rt::Nanoseconds gap,
                       std::string_view interface = "can0", rt::Nanoseconds first = 0) {
  for (std::size_t i = 0; i < count; ++i) {
    CanFrame f;
    f.id = static_cast<std::uint32_t>(0x100 + (i & 0x3FF));
    f.length = 2;
    f.data[0] = static_cast<std::uint8_t>(i);
    f.data[1] = static_cast<std::uint8_t>(i >> 8U);
    trace.add(first + static_cast<rt::Nanoseconds>(i) * gap, interface, f);
  }
}

}  // namespace hil::io::can::test
