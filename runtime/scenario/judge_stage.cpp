#include "runtime/scenario/judge_stage.hpp"

namespace hil::runtime {

JudgeStage::JudgeStage(const config::ScenarioSpec& scenario, const rt::ChannelTable& table)
    : judge_(scenario),
      table_(table),
      x_(table.resolve("vehicle.body.position.x")),
      y_(table.resolve("vehicle.body.position.y")),
      yaw_(table.resolve("vehicle.body.yaw")),
      speed_(table.resolve("vehicle.body.forward_speed")) {}

void JudgeStage::run(const rt::TickContext& c) noexcept {
  judge_.observe({.time = static_cast<double>(c.time) / static_cast<double>(rt::kSecond),
                  .x = table_.get(x_),
                  .y = table_.get(y_),
                  .yaw = table_.get(yaw_),
                  .speed = table_.get(speed_)});
}

}  // namespace hil::runtime
