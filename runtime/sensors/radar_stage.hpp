#pragma once
// A radar on the vehicle in the tick (docs/sensors.md "Radar"): a stage of the sensors slot,
// run every cycle (cycle_ms rounded to whole ticks, from tick 0). Each cycle it measures the
// object list (models/sensors/radar/radar_object_list.hpp) from the vehicle's pose and motion
// after this tick's step and the scenario's objects as the world slot left them
// (WorldObjectsStage::states()), and sends it on its CAN bus with CanBus::send_unmapped(): the
// status frame, then one frame per object, nearest first (radar_frames.hpp). The can_tx slot,
// later in the same tick, flushes the bus's transport, so the frames go out in the tick that
// made them; they are in the frame tap (can.log) like the mapping's, and a replay, which
// recomputes them from the same poses, compares them.
// Channels (outputs, written every cycle and held between): sensor.radar.<name>.objects [-]
// (objects listed), and the nearest object's figures as sent (noise included):
// sensor.radar.<name>.nearest.{id [-], dist_long [m], dist_lat [m], vrel_long [m/s],
// vrel_lat [m/s], rcs [dBsm]} (0 when the list is empty).
// Thread-safety: build in the setup phase (before the table is frozen); run() on the RT
// thread (noexcept, no allocation).

#include <cstdint>
#include <span>
#include <string>

#include "config/radar_spec.hpp"
#include "io/can/mapping/can_bus.hpp"
#include "models/sensors/radar/radar_object_list.hpp"
#include "models/vehicle/vehicle.hpp"
#include "rt_core/channel_table.hpp"
#include "rt_core/stage.hpp"
#include "runtime/sensors/radar_frames.hpp"
#include "runtime/world/world_objects_stage.hpp"

namespace hil::runtime {

class RadarStage final : public rt::Stage {
 public:
  /// Setup: the radar of `spec` sending on `bus` (whose DBC is `database`), carried by
  /// `vehicle` (nullptr: a sensor standing still at the world's origin), seeing `objects`
  /// (nullptr: none); its channels added to `table`; noise seeded from `master_seed` and its
  /// name. bus, vehicle and objects must outlive it.
  RadarStage(const config::RadarSpec& spec, io::can::CanBus& bus,
             const io::can::dbc::Database& database, const models::Vehicle* vehicle,
             const WorldObjectsStage* objects, rt::ChannelTable& table, double period_s,
             std::uint64_t master_seed);

  /// RT: one cycle (call it every every_ticks() ticks).
  void run(const rt::TickContext& c) noexcept override;

  /// The cycle in ticks of the executive's period (≥ 1).
  [[nodiscard]] std::uint32_t every_ticks() const noexcept { return every_ticks_; }
  [[nodiscard]] const std::string& name() const noexcept { return name_; }
  /// Cycles measured so far (the status frames' counter). RT thread.
  [[nodiscard]] std::uint64_t cycles() const noexcept { return cycles_; }
  /// The last cycle's list. RT thread (tests).
  [[nodiscard]] std::span<const models::radar::RadarObject> last_list() const noexcept {
    return last_;
  }

 private:
  std::string name_;
  io::can::CanBus& bus_;
  const models::Vehicle* vehicle_;
  const WorldObjectsStage* objects_;
  rt::ChannelTable& table_;
  models::radar::RadarObjectList model_;
  RadarFrames frames_;
  std::uint32_t every_ticks_ = 1;
  std::uint64_t cycles_ = 0;
  std::span<const models::radar::RadarObject> last_;
  rt::ChannelId count_{}, id_{}, dist_long_{}, dist_lat_{}, vrel_long_{}, vrel_lat_{}, rcs_{};
};

}  // namespace hil::runtime
