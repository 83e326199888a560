#include "tools/session/scenario_run.hpp"

#include <cmath>
#include <stdexcept>

namespace hil::session {

/// Feeds the judge the vehicle's own pose and speed after each step.
class ScenarioRun::JudgeTask final : public rt::Task {
 public:
  JudgeTask(scenario::ScenarioJudge& judge, const rt::ChannelTable& table)
      : judge_(judge),
        table_(table),
        x_(table.resolve("vehicle.body.position.x")),
        y_(table.resolve("vehicle.body.position.y")),
        yaw_(table.resolve("vehicle.body.yaw")),
        speed_(table.resolve("vehicle.body.forward_speed")) {}
  void update(const rt::TickContext& c) noexcept override {
    judge_.observe({.time = static_cast<double>(c.time) / static_cast<double>(rt::kSecond),
                    .x = table_.get(x_),
                    .y = table_.get(y_),
                    .yaw = table_.get(yaw_),
                    .speed = table_.get(speed_)});
  }

 private:
  scenario::ScenarioJudge& judge_;
  const rt::ChannelTable& table_;
  rt::ChannelId x_, y_, yaw_, speed_;
};

ScenarioRun::~ScenarioRun() = default;

ScenarioRun::ScenarioRun(config::RigRuntime& rig, const scenario::ScenarioSettings& scenario,
                         const ScenarioRunOptions& options)
    : rig_(rig), judge_(scenario) {
  if (rig.vehicle() == nullptr) throw std::runtime_error("a scenario needs a rig with a vehicle");
  const scenario::ScenarioPose& p = scenario.start;
  rig.vehicle()->reset(p.x, p.y, p.yaw, p.speed);
  const rt::Nanoseconds period = rig.settings().executive.period;
  ticks_ = std::llround(scenario.duration_s * 1e9 / static_cast<double>(period));
  if (options.virtual_ecu) ecu_ = std::make_unique<ecu::VirtualEcu>(rig.settings(), scenario);
  events_ = std::make_unique<scenario::ScenarioEvents>(scenario.events, rig.table(), period);
  judge_task_ = std::make_unique<JudgeTask>(judge_, rig.table());
}

std::vector<rt::TaskEntry> ScenarioRun::tasks() {
  std::vector<rt::TaskEntry> tasks;
  if (ecu_) tasks.push_back({.name = "ecu", .task = ecu_.get()});
  bool events_added = false;
  for (rt::TaskEntry& t : rig_.tasks()) {
    // The judge observes the vehicle right after its step, before the snapshot is published
    if (t.name == "publish") tasks.push_back({.name = "scenario_judge", .task = judge_task_.get()});
    // Events after the CAN task: on a channel a frame also writes, the event wins
    if (t.name == "vehicle" && !events_added) {
      tasks.push_back({.name = "scenario_events", .task = events_.get()});
      events_added = true;
    }
    tasks.push_back(std::move(t));
  }
  if (!events_added)
    tasks.insert(tasks.begin() + (ecu_ ? 1 : 0),
                 {.name = "scenario_events", .task = events_.get()});
  return tasks;
}

}  // namespace hil::session
