#pragma once
// The vehicle in the tick (slot models): its inputs read from their channels — after every
// read-phase stage set them —, one step, its outputs written to their channels. A non-finite
// output latches the vehicle's safe state, so no NaN reaches a channel or a frame
// (docs/architecture.md "The safe state").
// Thread-safety: build in the setup phase; run() on the RT thread.

#include "models/vehicle/vehicle.hpp"
#include "models/vehicle/vehicle_channels.hpp"
#include "rt_core/channel_table.hpp"
#include "rt_core/stage.hpp"

namespace hil::runtime {

class VehicleStage final : public rt::Stage {
 public:
  /// All three must outlive it.
  VehicleStage(models::Vehicle& vehicle, const models::VehicleChannels& channels,
               rt::ChannelTable& table) noexcept
      : vehicle_(vehicle), channels_(channels), table_(table) {}
  void run(const rt::TickContext& c) noexcept override;

 private:
  models::Vehicle& vehicle_;
  const models::VehicleChannels& channels_;
  rt::ChannelTable& table_;
  models::VehicleInputs inputs_;
};

}  // namespace hil::runtime
