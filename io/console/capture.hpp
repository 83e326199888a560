#pragma once
// A capture (docs/api.md "capture"), ASAM XIL's capture on the console thread: channels at the
// tick rate or every `decimation`-th tick, from a start trigger (now, a tick, a channel
// condition's edge or level, with pre-trigger samples) to a stop trigger (a duration, a tick,
// a condition), once or re-armed after each shot (an oscilloscope's normal mode). It takes every
// tick the tap delivers and cuts sample blocks; ticks the tap lost and blocks the client could
// not take are counted, never silent.
//
// Thread-safety: one thread (the console's).

#include <cstdint>
#include <deque>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "rt_core/channel_condition.hpp"

namespace hil::io::console {

struct CaptureTrigger {
  enum class Kind : std::uint8_t { now, tick, condition };
  Kind kind = Kind::now;
  std::int64_t tick = 0;  ///< tick: at (start) or through (stop) this tick
  std::optional<rt::ChannelCondition> condition;
  bool edge = true;  ///< condition: when it becomes true (false: whenever it holds)
};

struct CaptureSpec {
  std::uint16_t id = 1;
  std::vector<std::uint32_t> channels;  ///< table indices
  std::uint32_t decimation = 1;         ///< one sample every this many ticks
  CaptureTrigger start;
  std::int64_t pre_ticks = 0;  ///< ticks before the start trigger kept (condition or tick start)
  /// Stop: after this many ticks of the shot (0: no limit), and/or at `stop`.
  std::int64_t duration_ticks = 0;
  std::optional<CaptureTrigger> stop;
  bool repeat = false;  ///< normal mode: armed again after each shot
};

/// One block of samples: consecutive samples `decimation` ticks apart, channel-major.
struct CaptureBlock {
  std::uint32_t shot = 0;
  std::int64_t first_tick = 0;
  std::uint32_t samples = 0;
  std::vector<double> values;  ///< channel c's samples at [c * samples, (c + 1) * samples)
};

/// What the client is told besides the blocks.
struct CaptureNotice {
  enum class Kind : std::uint8_t { triggered, ended };
  Kind kind = Kind::triggered;
  std::uint32_t shot = 0;
  std::int64_t tick = 0;        ///< triggered: the trigger tick; ended: the last tick
  std::int64_t first_tick = 0;  ///< the shot's first sample (pre-trigger included)
  std::uint64_t samples = 0;    ///< ended: samples of the shot delivered
  std::uint64_t lost = 0;       ///< ended: samples of the shot lost
  std::string reason;           ///< ended: "duration", "tick", "condition", "cancelled", …
};

class Capture {
 public:
  static constexpr std::uint32_t kBlockSamples = 1024;

  explicit Capture(CaptureSpec spec);

  /// One tick's whole table. Ticks increase; a gap is ticks the tap lost.
  void add_tick(std::int64_t tick, std::span<const double> row);
  /// Ends the shot in progress (and the capture): "cancelled", "run ended".
  void end(const std::string& reason);
  /// Cuts the partial block so it goes out now (the console's pump).
  void flush();

  /// Blocks and notices ready, in order (a notice follows the blocks before it).
  struct Output {
    std::optional<CaptureBlock> block;
    std::optional<CaptureNotice> notice;
  };
  [[nodiscard]] std::deque<Output>& output() noexcept { return out_; }
  [[nodiscard]] bool pending() const noexcept { return !out_.empty(); }

  [[nodiscard]] const CaptureSpec& spec() const noexcept { return spec_; }
  [[nodiscard]] bool done() const noexcept { return state_ == State::done; }
  /// Samples lost because the tap lost their ticks (those the client could not take are the
  /// caller's to count).
  [[nodiscard]] std::uint64_t lost() const noexcept { return lost_; }

 private:
  enum class State : std::uint8_t { armed, recording, done };
  /// `t` fires at this tick; `was`: the condition at the tick before (edges).
  static bool fires(const CaptureTrigger& t, std::optional<bool>& was, std::int64_t tick,
                    std::span<const double> row);
  bool stop_fires(std::int64_t tick, std::span<const double> row);
  void begin_shot(std::int64_t trigger_tick);
  /// One sample: of the whole table's `row`, or of the selected channels' values.
  void append(std::int64_t tick, std::span<const double> row);
  void append_selected(std::int64_t tick, const double* selected);
  /// Around the values a sample appends: cuts the block at a gap, counts, cuts a full block.
  void start_sample(std::int64_t tick);
  void finish_sample();
  void end_shot(std::int64_t last_tick, const std::string& reason);
  void note_lost(std::uint64_t samples) noexcept {
    lost_ += samples;
    shot_lost_ += samples;
  }

  CaptureSpec spec_;
  State state_ = State::armed;
  std::int64_t last_tick_ = -1;
  std::optional<bool> start_was_, stop_was_;  ///< the conditions at the previous tick
  // pre-trigger: the last pre_ticks ticks' selected channels (row-major), a ring
  std::vector<double> pre_;
  std::vector<std::int64_t> pre_ticks_;
  std::size_t pre_next_ = 0, pre_count_ = 0;
  // the shot
  std::uint32_t shot_ = 0;
  std::int64_t trigger_tick_ = 0;
  std::int64_t shot_first_ = 0;
  std::uint64_t shot_samples_ = 0, shot_lost_ = 0, lost_ = 0;
  // the block being filled (row-major until cut)
  std::vector<double> rows_;
  std::int64_t block_first_ = 0;
  std::int64_t block_last_ = 0;
  std::uint32_t block_samples_ = 0;
  std::deque<Output> out_;
};

}  // namespace hil::io::console
