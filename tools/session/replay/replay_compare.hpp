#pragma once
// The parts of `hilsim replay` (tools/session/replay/replay_session.hpp): the comparison of
// replayed frames and samples with it, and its report. Setup phase, one thread.

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "io/can/transport/replay_transport.hpp"
#include "tools/session/replay/replay_session.hpp"
#include "tools/session/run/run_directory.hpp"

namespace hil::session {

struct Divergence {
  std::int64_t tick = 0;
  std::string what;  ///< "frame ecu 0x200", "channel vehicle.body.yaw"
  std::string expected;
  std::string got;
};

/// How far the replayed values of one channel strayed from the recorded ones.
struct ChannelDeviation {
  std::string channel;
  double largest = 0.0;    ///< max |got − expected| (infinite: NaN against a number)
  double magnitude = 0.0;  ///< max |expected| over the compared samples: the channel's scale
  std::int64_t tick = 0;   ///< where the largest deviation was
  double expected = 0.0;
  double got = 0.0;
  bool ignored = false;  ///< matches an --ignore pattern: reported, not judged
  /// largest / magnitude: what --tolerance bounds (infinite for a channel recorded as 0).
  [[nodiscard]] double relative() const noexcept;
};

struct Comparison {
  std::int64_t ticks = 0;
  double wall_s = 0.0;  ///< how long replaying and comparing took
  std::uint64_t frames_compared = 0, frames_differing = 0, frames_missing = 0, frames_extra = 0;
  std::uint64_t samples_compared = 0, values_compared = 0, values_differing = 0;
  bool truncated = false;  ///< the recording ended without its summary (a killed run)
  std::optional<Divergence> first;
  /// The channels whose values differ, largest relative deviation first.
  std::vector<ChannelDeviation> deviations;
  /// --tolerance: the largest relative deviation a value may have (frames stay bit for bit).
  std::optional<double> tolerance;
  /// --ignore: channels (wildcards) whose deviations the tolerance does not judge.
  std::vector<std::string> ignore;

  void note(Divergence d) {
    if (!first || d.tick < first->tick) first = std::move(d);
  }
  [[nodiscard]] bool frames_identical() const noexcept {
    return frames_differing == 0 && frames_missing == 0 && frames_extra == 0;
  }
  [[nodiscard]] bool identical() const noexcept {
    return frames_identical() && values_differing == 0;
  }
  /// Identical, or every value within the tolerance and every frame identical.
  [[nodiscard]] bool within_tolerance() const noexcept;
};

/// Per recorded column: the channel's magnitude and its largest deviation so far. Cheap
/// enough to run on every compared value: what add() touches per value is one double of a
/// dense array (the columns' names and deviations only when a value differs). `hilsim replay`
/// runs it on the telemetry's reading thread, not the loop's (replay_session.cpp).
class DeviationTracker {
 public:
  /// Setup: the next recorded column, a channel; returns its index for add().
  std::size_t add_column(std::string channel);
  /// Column `column` of the sample at `tick` was `expected` in the recording, `got` now;
  /// true when they differ (bit for bit).
  bool add(std::size_t column, std::int64_t tick, double expected, double got) noexcept {
    if (std::isfinite(expected))
      magnitude_[column] = std::max(magnitude_[column], std::abs(expected));
    if (std::bit_cast<std::uint64_t>(got) == std::bit_cast<std::uint64_t>(expected)) return false;
    differs(columns_[column], tick, expected, got);
    return true;
  }
  /// The channels that differ, largest relative deviation first; those `ignore` (wildcards)
  /// names marked ignored.
  [[nodiscard]] std::vector<ChannelDeviation> result(const std::vector<std::string>& ignore) const;

 private:
  struct Column {
    ChannelDeviation deviation;  ///< its magnitude filled in by result()
    bool differs = false;
  };
  static void differs(Column& c, std::int64_t tick, double expected, double got) noexcept;
  std::vector<Column> columns_;
  std::vector<double> magnitude_;  ///< per column: max |expected|
};

/// Checks every frame the replayed buses send against the recorded ones, per bus in tick
/// order; makes the replay transports.
class FrameChecker {
 public:
  FrameChecker(const CanRecording& log, Comparison& result) : log_(log), result_(result) {}
  /// The replay transport of bus `name`: its recorded receptions, its sends checked.
  [[nodiscard]] std::unique_ptr<io::can::Transport> transport(std::size_t bus,
                                                              const std::string& name);
  /// Recorded sends up to `last_tick` that were never produced count as missing.
  void finish(std::int64_t last_tick);

 private:
  void check(const std::string& bus, std::int64_t tick, const io::can::CanFrame& frame);

  const CanRecording& log_;
  Comparison& result_;
  std::map<std::string, std::size_t> next_;  // per bus: the next recorded send
};

/// "identical: N frames, M samples …" or "DIVERGED at tick …", several lines.
[[nodiscard]] std::string describe(const Comparison& c, std::int64_t period_ns);
[[nodiscard]] nlohmann::json to_json(const Comparison& c, std::int64_t period_ns);

/// `hilsim replay LOG --rig NAME`: see replay_session.hpp.
[[nodiscard]] int replay_external_log(const ReplaySpec& options);

}  // namespace hil::session
