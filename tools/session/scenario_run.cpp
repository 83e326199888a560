#include "tools/session/scenario_run.hpp"

#include <cmath>
#include <stdexcept>

namespace hil::session {

/// Feeds the judge the vehicle's own pose and speed after each step (write phase, first:
/// the truth, before any output fault).
class ScenarioRun::JudgeTask final : public rt::Stage {
 public:
  JudgeTask(runtime::ScenarioJudge& judge, const rt::ChannelTable& table)
      : judge_(judge),
        table_(table),
        x_(table.resolve("vehicle.body.position.x")),
        y_(table.resolve("vehicle.body.position.y")),
        yaw_(table.resolve("vehicle.body.yaw")),
        speed_(table.resolve("vehicle.body.forward_speed")) {}
  void run(const rt::TickContext& c) noexcept override {
    judge_.observe({.time = static_cast<double>(c.time) / static_cast<double>(rt::kSecond),
                    .x = table_.get(x_),
                    .y = table_.get(y_),
                    .yaw = table_.get(yaw_),
                    .speed = table_.get(speed_)});
  }

 private:
  runtime::ScenarioJudge& judge_;
  const rt::ChannelTable& table_;
  rt::ChannelId x_, y_, yaw_, speed_;
};

ScenarioRun::~ScenarioRun() = default;

ScenarioRun::ScenarioRun(runtime::Rig& rig, const config::ScenarioSettings& scenario,
                         const ScenarioRunOptions& options)
    : rig_(rig), judge_(scenario) {
  if (rig.vehicle() == nullptr) throw std::runtime_error("a scenario needs a rig with a vehicle");
  const config::ScenarioPose& p = scenario.start;
  rig.vehicle()->reset(p.x, p.y, p.yaw, p.speed);
  const rt::Nanoseconds period = rig.settings().executive.period;
  ticks_ = std::llround(scenario.duration_s * 1e9 / static_cast<double>(period));
  if (options.virtual_ecu) ecu_ = std::make_unique<ecu::VirtualEcu>(rig.settings(), scenario);
  events_ = std::make_unique<runtime::ScenarioEvents>(scenario.events, rig.table(), period);
  judge_task_ = std::make_unique<JudgeTask>(judge_, rig.table());
}

void ScenarioRun::add_stages(runtime::TickPlan& plan) {
  rig_.add_stages(plan);
  if (ecu_) {  // the ECU reads what the rig sent last tick, drives, and sends
    plan.add(runtime::Slot::peer_rx, "ecu_rx", ecu_->receive_stage());
    plan.add(runtime::Slot::peer_update, "ecu", ecu_->drive_stage(),
             static_cast<std::uint32_t>(ecu_->cycle_ticks()));
    plan.add(runtime::Slot::peer_tx, "ecu_tx", ecu_->send_stage());
  }
  plan.add(runtime::Slot::scenario_events, "scenario_events", *events_);
  plan.add(runtime::Slot::judge, "scenario_judge", *judge_task_);
}

}  // namespace hil::session
