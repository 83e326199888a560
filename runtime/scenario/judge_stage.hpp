#pragma once
// The scenario's judge in the tick (slot judge, the first of the write phase): it observes
// the vehicle's own pose and speed after each step — the truth, before any output fault —
// and the statuses of the DTCs its dtc gates name as the rig's UDS tester last read them
// (diag.dtc.<name>.status, −1 until the first read), the wheels' sinkage and slip
// (vehicle.wheel.<w>.sinkage, .slip: the deepest and the mean), and judges the gates on them
// (runtime/scenario/scenario_judge.hpp).
// Thread-safety: build in the setup phase; run() on the RT thread; judge() from any thread
// for its live marks, verdict() after the run.

#include <optional>
#include <vector>

#include "config/diagnostics_spec.hpp"
#include "rt_core/channel_table.hpp"
#include "rt_core/stage.hpp"
#include "runtime/scenario/scenario_judge.hpp"

namespace hil::runtime {

class JudgeStage final : public rt::Stage {
 public:
  /// Resolves the vehicle's channels in `table` (std::out_of_range naming one it lacks) and,
  /// for each dtc gate's code, the status channel of the DTC with that code in the rig's
  /// `diagnostics` (std::invalid_argument naming the gate when the rig has no diagnostics,
  /// no DTC with that code or no such channel). `table` must outlive it.
  JudgeStage(const config::ScenarioSpec& scenario, const rt::ChannelTable& table,
             const std::optional<config::DiagnosticsSpec>& diagnostics);
  /// RT thread: one observation at the tick's time. No allocation.
  void run(const rt::TickContext& c) noexcept override;
  /// Any thread: the judge, for its live marks; its verdict after the run.
  [[nodiscard]] const ScenarioJudge& judge() const noexcept { return judge_; }

 private:
  ScenarioJudge judge_;
  const rt::ChannelTable& table_;
  rt::ChannelId x_, y_, yaw_, speed_;
  std::vector<rt::ChannelId> dtc_channels_;  ///< aligned with judge_.dtc_codes()
  std::vector<double> dtc_status_;           ///< this tick's statuses, preallocated
  /// vehicle.wheel.<w>.sinkage and .slip of every wheel (not_bogged_down gates), or none
  std::vector<rt::ChannelId> sinkage_, slip_;
};

}  // namespace hil::runtime
