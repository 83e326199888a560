#pragma once
// Test helpers for CAN transports: frame builders and "receive until" with a deadline.

#include <chrono>
#include <cstdint>
#include <initializer_list>
#include <thread>
#include <vector>

#include "io/can/can_frame.hpp"
#include "io/can/transport/transport.hpp"

namespace hil::io::can::test {

/// A frame with `id`, `bytes` as data and `flags` (the flag bits of io/can/can_frame.hpp).
inline CanFrame make_frame(std::uint32_t id, std::initializer_list<std::uint8_t> bytes,
                           std::uint8_t flags = 0) {
  CanFrame f;
  f.id = id;
  f.flags = flags;
  for (const std::uint8_t b : bytes) f.data[f.length++] = b;
  return f;
}

/// A remote request for `dlc` bytes.
inline CanFrame make_remote(std::uint32_t id, std::uint8_t dlc, bool extended = false) {
  CanFrame f;
  f.id = id;
  f.length = dlc;
  f.flags = static_cast<std::uint8_t>(kRemote | (extended ? kExtended : 0));
  return f;
}

/// An FD frame of `length` bytes 0, 1, 2, … (plus `seed`).
inline CanFrame make_fd(std::uint32_t id, std::uint8_t length, std::uint8_t flags = 0,
                        std::uint8_t seed = 0) {
  CanFrame f;
  f.id = id;
  f.length = length;
  f.flags = static_cast<std::uint8_t>(kFd | flags);
  for (std::uint8_t i = 0; i < length; ++i) f.data[i] = static_cast<std::uint8_t>(i + seed);
  return f;
}

/// The frames of `timed`, without their timestamps.
inline std::vector<CanFrame> frames_of(const std::vector<TimedFrame>& timed) {
  std::vector<CanFrame> out;
  out.reserve(timed.size());
  for (const TimedFrame& t : timed) out.push_back(t.frame);
  return out;
}

/// Polls `t` (as the RT loop would, one tick per millisecond) until `count` frames arrived
/// or `timeout` passed; returns what arrived.
inline std::vector<TimedFrame> receive_until(Transport& t, std::size_t count,
                                             std::chrono::milliseconds timeout,
                                             std::int64_t tick = 0) {
  std::vector<TimedFrame> got;
  std::vector<TimedFrame> buffer(64);
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  while (got.size() < count && std::chrono::steady_clock::now() < deadline) {
    const std::size_t n = t.receive(buffer, tick++);
    got.insert(got.end(), buffer.begin(), buffer.begin() + static_cast<std::ptrdiff_t>(n));
    if (n == 0) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  return got;
}

}  // namespace hil::io::can::test
