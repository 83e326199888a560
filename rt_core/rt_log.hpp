#pragma once
// Logging from the RT thread without logging on it: the RT side posts fixed-size events
// into an SpscRing; a non-RT thread drains them into spdlog.

#include <array>
#include <cstdint>
#include <limits>

#include "rt_core/spsc_ring.hpp"

namespace spdlog {
class logger;
}

namespace hil::rt {

enum class RtLogLevel : std::uint8_t { info, warn, error };

struct RtLogEvent {
  RtLogLevel level = RtLogLevel::info;
  const char* format = "";  ///< a string literal in fmt syntax with up to three {}
  std::array<std::int64_t, 3> args{};
};

class RtLog {
 public:
  /// Setup only.
  explicit RtLog(std::size_t capacity = 1024) : ring_(capacity) {}

  /// RT thread (the one producer). `format` must be a string literal (its pointer is
  /// stored). Never blocks; false (and counted as dropped) when the ring is full.
  [[nodiscard]] bool post(RtLogLevel level, const char* format, std::int64_t a = 0,
                          std::int64_t b = 0, std::int64_t c = 0) noexcept {
    return ring_.try_push(RtLogEvent{level, format, {a, b, c}});
  }

  /// Non-RT thread (the one consumer): empties the ring, logs at most `max_lines` events and
  /// one line each for the events not shown and the events dropped since the last drain.
  /// Returns how many events were taken from the ring.
  std::size_t drain(spdlog::logger& logger, std::size_t max_lines = SIZE_MAX);

  /// Any thread.
  [[nodiscard]] std::uint64_t dropped() const noexcept { return ring_.dropped(); }

 private:
  SpscRing<RtLogEvent> ring_;
  std::uint64_t dropped_reported_ = 0;  // consumer-side only
};

}  // namespace hil::rt
