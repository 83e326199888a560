#pragma once
// The scenario's timed events on the rig's side (config/scenario/scenario.proto "events"): a
// stage of the read phase (slot scenario_events) that sets each event's input channel — from the
// tick the event starts, a linear ramp from the value the channel had then to the event's value
// over the ramp's ticks, then that value held until the channel's next event. By tick, so runs
// repeat exactly (DESIGN.md §4). Put it after the CAN task: an event on a channel the CAN bus also
// writes wins (a fault injection). A UDS event goes to the rig's tester (runtime/diag) at its
// tick instead.
//
// Setup: the constructor resolves the channels (std::out_of_range naming an unknown one)
// and sorts the events; read() is RT: no allocation, O(channels with events).
// Not thread-safe: the executive's thread.

#include <cstdint>
#include <vector>

#include "config/scenario/scenario_spec.hpp"
#include "rt_core/channel_table.hpp"
#include "rt_core/stage.hpp"
#include "rt_core/time.hpp"

namespace hil::runtime {

class DiagTester;  // runtime/diag/diag_tester.hpp

class ScenarioEvents final : public rt::Stage {
 public:
  /// `period`: the executive's base period (event times round to its ticks); `tester`: the
  /// rig's, for UDS events (std::invalid_argument when there are some and no tester).
  ScenarioEvents(const std::vector<config::EventSpec>& events, rt::ChannelTable& table,
                 rt::Nanoseconds period, DiagTester* tester = nullptr);

  /// RT: the events' values at c.tick.
  void run(const rt::TickContext& c) noexcept override;

  /// Events that have started so far. Same thread, or after the run.
  [[nodiscard]] std::size_t started() const noexcept { return started_; }

 private:
  struct Step {
    std::int64_t start = 0;  ///< first tick
    std::int64_t ramp = 0;   ///< ticks to reach `value` (0: at once)
    double value = 0.0;
  };
  struct Channel {
    rt::ChannelId id{};
    std::size_t first = 0, end = 0;  ///< its steps in steps_, by start tick
    std::size_t next = 0;            ///< the next step to start
    double from = 0.0;               ///< the value when the current step started
  };

  struct UdsEvent {
    std::int64_t tick = 0;
    std::vector<std::uint8_t> request;
  };
  rt::ChannelTable& table_;
  DiagTester* tester_;
  std::vector<UdsEvent> uds_;  ///< by tick
  std::size_t next_uds_ = 0;
  std::vector<Step> steps_;
  std::vector<Channel> channels_;
  std::size_t started_ = 0;
};

}  // namespace hil::runtime
