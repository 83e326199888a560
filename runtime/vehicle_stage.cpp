#include "runtime/vehicle_stage.hpp"

namespace hil::runtime {

void VehicleStage::run(const rt::TickContext& /*c*/) noexcept {
  channels_.read(table_, inputs_);
  vehicle_.step(inputs_);
  if (channels_.write(vehicle_.outputs(), table_) != 0) {  // a non-finite output
    vehicle_.enter_safe_state();
    (void)channels_.write(vehicle_.outputs(), table_);
  }
}

}  // namespace hil::runtime
