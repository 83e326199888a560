#pragma once
// A scenario in the loop, in process (`hilsim run --scenario NAME`, the tests): around the
// rig's own tasks, the virtual ECU on the rig's virtual: bus, the scenario's events and the
// judge of its gates on the model's own state, each in its slot of the tick
// (runtime/tick_plan.hpp): ecu in peer_rx/peer_update/peer_tx, events in scenario_events
// (after can_rx: on a channel a frame also writes, the event wins), the judge in judge.
// The vehicle is placed at the scenario's start pose. Setup phase: may throw
// (std::runtime_error naming what is missing, e.g. a channel the ECU needs).
//
// Thread-safety: tasks() run on the executive's thread; verdict() after the run.

#include <cstdint>
#include <memory>
#include <vector>

#include "config/scenario/scenario_settings.hpp"
#include "runtime/rig.hpp"
#include "runtime/scenario/scenario_events.hpp"
#include "runtime/scenario/scenario_judge.hpp"
#include "runtime/tick_plan.hpp"
#include "tools/ecu/virtual_ecu.hpp"

namespace hil::session {

struct ScenarioRunOptions {
  /// false: a real ECU is on the bus (`hilsim run --can URI`); only events and gates run here.
  bool virtual_ecu = true;
};

class ScenarioRun {
 public:
  /// `rig` must have been built from the scenario's loaded rig (ScenarioLoadResult::rig) with
  /// RuntimeOptions::extra_input_channels = scenario.marker_channels; both must outlive this.
  ScenarioRun(runtime::Rig& rig, const config::ScenarioSettings& scenario,
              const ScenarioRunOptions& options = {});
  ~ScenarioRun();
  ScenarioRun(const ScenarioRun&) = delete;
  ScenarioRun& operator=(const ScenarioRun&) = delete;

  /// Adds the rig's stages and the scenario's to their slots of the tick.
  void add_stages(runtime::TickPlan& plan);
  /// The scenario's duration in ticks of the rig's executive.
  [[nodiscard]] std::int64_t ticks() const noexcept { return ticks_; }
  /// The gates judged on the vehicle's own state (the truth). After the run.
  [[nodiscard]] runtime::ScenarioVerdict verdict() const { return judge_.verdict(); }
  /// The judge, for its live marks (any thread).
  [[nodiscard]] const runtime::ScenarioJudge& judge() const noexcept { return judge_; }
  /// The in-process ECU, or nullptr with a real one.
  [[nodiscard]] ecu::VirtualEcu* ecu() noexcept { return ecu_.get(); }
  [[nodiscard]] const runtime::ScenarioEvents& events() const noexcept { return *events_; }

 private:
  class JudgeTask;

  runtime::Rig& rig_;
  std::int64_t ticks_ = 0;
  std::unique_ptr<ecu::VirtualEcu> ecu_;
  std::unique_ptr<runtime::ScenarioEvents> events_;
  runtime::ScenarioJudge judge_;
  std::unique_ptr<JudgeTask> judge_task_;
};

}  // namespace hil::session
