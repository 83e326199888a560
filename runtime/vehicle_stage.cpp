#include "runtime/vehicle_stage.hpp"

namespace hil::runtime {

void VehicleStages::add_to(TickPlan& plan) {
  plan.add(Slot::models, "vehicle_inputs", inputs_stage_);
  if (vehicle_.params().drive.kind == models::DriveKind::electric) {
    plan.add(Slot::models, "drive_control", control_stage_, vehicle_.controller_decimation());
  }
  plan.add(Slot::models, "vehicle", step_stage_);
}

void VehicleStages::take_inputs(std::int64_t /*tick*/) noexcept {
  channels_.read(table_, inputs_);
  vehicle_.take_inputs(inputs_);
}

void VehicleStages::control(std::int64_t /*tick*/) noexcept { vehicle_.control(); }

void VehicleStages::step(std::int64_t tick) noexcept {
  vehicle_.advance(tick);
  if (channels_.write(vehicle_.outputs(), table_) != 0) {  // a non-finite output
    vehicle_.enter_safe_state();
    (void)channels_.write(vehicle_.outputs(), table_);
  }
}

}  // namespace hil::runtime
