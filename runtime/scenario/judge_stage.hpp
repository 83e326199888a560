#pragma once
// The scenario's judge in the tick (slot judge, the first of the write phase): it observes
// the vehicle's own pose and speed after each step — the truth, before any output fault —
// and judges the gates on them (runtime/scenario/scenario_judge.hpp).
// Thread-safety: build in the setup phase; run() on the RT thread; judge() from any thread
// for its live marks, verdict() after the run.

#include "rt_core/channel_table.hpp"
#include "rt_core/stage.hpp"
#include "runtime/scenario/scenario_judge.hpp"

namespace hil::runtime {

class JudgeStage final : public rt::Stage {
 public:
  /// Resolves the vehicle's channels in `table` (std::out_of_range naming one it lacks);
  /// `table` must outlive it.
  JudgeStage(const config::ScenarioSpec& scenario, const rt::ChannelTable& table);
  void run(const rt::TickContext& c) noexcept override;
  [[nodiscard]] const ScenarioJudge& judge() const noexcept { return judge_; }

 private:
  ScenarioJudge judge_;
  const rt::ChannelTable& table_;
  rt::ChannelId x_, y_, yaw_, speed_;
};

}  // namespace hil::runtime
