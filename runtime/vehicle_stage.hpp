#pragma once
// The vehicle in the tick (slot models, models/vehicle/vehicle.hpp), three stages in order:
//   vehicle_inputs  every tick: its input channels — after every read-phase stage set them —
//                   taken (references held, non-finite ones counted)
//   drive_control   every controller_decimation-th tick: the drive's controllers sample
//   vehicle         every tick: one step, its outputs written to their channels; a non-finite
//                   output latches the vehicle's safe state, so no NaN reaches a channel or a
//                   frame (docs/architecture.md "The safe state")
// Thread-safety: build in the setup phase; the stages run on the RT thread.

#include "models/vehicle/vehicle.hpp"
#include "models/vehicle/vehicle_channels.hpp"
#include "rt_core/channel_table.hpp"
#include "rt_core/stage.hpp"
#include "runtime/tick_plan.hpp"

namespace hil::runtime {

class VehicleStages {
 public:
  /// All three must outlive it.
  VehicleStages(models::Vehicle& vehicle, const models::VehicleChannels& channels,
                rt::ChannelTable& table) noexcept
      : vehicle_(vehicle), channels_(channels), table_(table) {}
  VehicleStages(const VehicleStages&) = delete;
  VehicleStages& operator=(const VehicleStages&) = delete;

  /// Setup: the three stages in the models slot.
  void add_to(TickPlan& plan);

 private:
  void take_inputs(std::int64_t tick) noexcept;
  void control(std::int64_t tick) noexcept;
  void step(std::int64_t tick) noexcept;

  models::Vehicle& vehicle_;
  const models::VehicleChannels& channels_;
  rt::ChannelTable& table_;
  models::VehicleInputs inputs_;
  rt::MethodStage<&VehicleStages::take_inputs> inputs_stage_{*this};
  rt::MethodStage<&VehicleStages::control> control_stage_{*this};
  rt::MethodStage<&VehicleStages::step> step_stage_{*this};
};

}  // namespace hil::runtime
