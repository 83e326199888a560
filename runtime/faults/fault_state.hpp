#pragma once
// One fault's run-time state, shared by the engine (triggers, channel faults) and the message
// hooks (runtime/faults/message_faults.hpp). Internal to tools/faults; RT-safe after setup.

#include <atomic>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "config/fault_spec.hpp"
#include "rt_core/channel_table.hpp"

namespace hil::runtime::detail {

class MessageFaults;

/// A channel condition resolved to its id, with its debounce in ticks.
struct Condition {
  rt::ChannelId channel{};
  config::FaultCondition::Test test = config::FaultCondition::Test::above;
  double value = 0.0;
  std::int64_t debounce = 0;
  std::int64_t true_since = -1;  ///< tick it became true, −1: false
  double last = 0.0;             ///< crosses: the value last tick
  bool has_last = false;

  /// RT: whether it holds at `tick` given the channel's value `v`.
  bool holds(std::int64_t tick, double v) noexcept;
};

struct Fault {
  config::FaultSpec settings;
  std::string what;  ///< "drop of HIL_WheelSpeeds on ecu", for events and the summary

  // when
  enum class Start : std::uint8_t { at, condition, after } start = Start::at;
  std::int64_t start_tick = 0;
  Condition start_condition;
  std::size_t after = 0;  ///< index of the fault whose stop starts this one
  enum class Stop : std::uint8_t { never, duration, count, condition } stop = Stop::never;
  std::int64_t duration = 0;  ///< ticks
  std::uint64_t stop_count = 0;
  Condition stop_condition;
  std::int64_t pulse_on = 0, pulse_off = 0;  ///< ticks; 0: no pulse

  // state (RT thread)
  bool started = false, stopped = false, active = false, stop_reported = false;
  bool force_stop = false;    ///< a command cleared it: it stops at the next decision
  bool has_channels = false;  ///< fault.<name>.* exist (faults of the files, not commands)
  std::int64_t onset = -1;
  std::int64_t first_active = -1, last_active = -1;
  std::uint64_t count = 0;  ///< frames affected (message faults) or ticks on
  /// For other threads (FaultEngine::marks): the first tick on and the tick it stopped, −1.
  std::atomic<std::int64_t> started_at{-1}, stopped_at{-1};

  // channels
  rt::ChannelId active_channel{}, count_channel{}, original_channel{};

  // channel faults
  rt::ChannelId target{};
  bool input = false;     ///< applied in fault_in (else fault_out)
  double original = 0.0;  ///< the truth this tick
  double applied = 0.0;   ///< what the fault wrote
  bool wrote = false;     ///< it wrote `applied` last tick
  double stuck = 0.0;
  bool stuck_captured = false;
  std::vector<double> delay_ring;  ///< the last delay+1 values
  std::size_t delay_pos = 0;
  std::mt19937_64 rng;
  std::normal_distribution<double> normal{0.0, 1.0};

  // message faults (see message_faults.cpp)
  MessageFaults* hook = nullptr;  ///< the hook of its message
  std::int64_t cycle_ticks = 0, delay_ticks = 0;
  std::uint64_t due_frames = 0;  ///< every_nth: due frames seen while active
  std::size_t signal = 0;        ///< signal fault: its index in the message

  // bus faults
  std::size_t bus = 0;
  std::int32_t node = -1;  ///< a node's silence: its index in the bus's DBC, else −1
};

}  // namespace hil::runtime::detail
