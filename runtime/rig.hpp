#pragma once
// A loaded rig made runnable (runtime wires models and io together): the channel table,
// the vehicle and its channels, the CAN buses with their transports, and the tasks that run
// them each tick, in their slots of the tick (runtime/tick_plan.hpp):
//   can_rx   CAN buses drain and decode into input channels
//   bus_rx   the shared-memory bus applies its input regions (timeouts, safe values)
//   models   the vehicle reads its input channels, takes one step, writes its outputs (a
//            non-finite output latches its safe state: no NaN reaches a channel or frame)
//   can_tx   the rig's UDS tester (runtime/diag/diag_tester.hpp, when the rig has a
//            diagnostics block), then the CAN buses encode and send what is due
//   bus_tx   the shared-memory bus publishes its output regions
//   world    the scenario's objects move (RigBuildSpec::objects; runtime/world/)
//   sensors  range sensors sample that world; a radar sends its object list on its CAN bus
//            (runtime/sensors/radar_stage.hpp), which can_tx flushes in the same tick
// (The channel snapshot that non-RT threads read is the console's: io/console/console_tap.hpp.)
// Setup phase (constructor: may allocate, throw, open sockets). The tasks run on the RT thread.
// Not copyable; the executive and the recorder keep pointers into it.

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "config/rig/loader.hpp"
#include "io/bus/bus_exchange.hpp"
#include "io/bus/live_bus.hpp"
#include "io/can/mapping/can_bus.hpp"
#include "models/vehicle/vehicle.hpp"
#include "models/vehicle/vehicle_channels.hpp"
#include "rt_core/channel_table.hpp"
#include "rt_core/stage.hpp"
#include "runtime/can_stages.hpp"
#include "runtime/diag/diag_tester.hpp"
#include "runtime/fmu/fmu_stage.hpp"
#include "runtime/sensors/lidar_stage.hpp"
#include "runtime/sensors/radar_stage.hpp"
#include "runtime/tick_plan.hpp"
#include "runtime/vehicle_stage.hpp"
#include "runtime/world/world_objects_stage.hpp"

namespace hil::runtime {

struct RigBuildSpec {
  /// --can URI: the first bus talks over this transport instead of the rig file's.
  std::optional<std::string> can_uri;
  /// More input channels (scenario events that drive channels no model reads, e.g. markers).
  std::vector<std::string> extra_input_channels;
  /// More output channels (the fault engine's fault.<name>.*).
  std::vector<rt::ChannelSpec> extra_output_channels;
  /// When set, the transport of bus i (replay, tests) instead of opening its URI.
  std::function<std::unique_ptr<io::can::Transport>(std::size_t bus, const std::string& name)>
      transport_for_bus;
  /// The shared-memory bus's name when the rig file gives none (the rig's short name).
  std::string bus_name = "hilsim";
  /// Open the bus to co-simulators (image, attach socket, mirror). false: the caller connects
  /// the bus task to its own input (replay, tests).
  bool live_bus = true;
  /// The scenario's objects, world frame (config/scenario/scenario_objects.hpp): moved by the
  /// world_objects stage when the rig has a terrain.
  std::vector<models::MovingObjectSpec> objects;
  /// The lidars send their packets to their URIs (false: replays, tests — nothing leaves).
  bool send_lidar = true;
};

class Rig {
 public:
  /// Builds everything; throws std::runtime_error naming what failed (a transport that
  /// cannot open, a mapping the rig file check missed). Freezes the channel table.
  explicit Rig(config::RigSpec settings, const RigBuildSpec& options = {});
  ~Rig();
  Rig(const Rig&) = delete;
  Rig& operator=(const Rig&) = delete;
  Rig(Rig&&) = delete;
  Rig& operator=(Rig&&) = delete;

  [[nodiscard]] rt::ChannelTable& table() noexcept { return table_; }
  [[nodiscard]] const rt::ChannelTable& table() const noexcept { return table_; }
  /// The vehicle, or nullptr for a rig without one. Setup may reset() it (start pose).
  [[nodiscard]] models::Vehicle* vehicle() noexcept { return vehicle_.get(); }
  /// The rig's FMUs in the tick (runtime/fmu/fmu_stage.hpp), in the rig file's order.
  [[nodiscard]] const std::vector<std::unique_ptr<FmuStage>>& fmus() const noexcept {
    return fmus_;
  }
  /// The UDS tester on the diagnostics bus, when the rig has a diagnostics block.
  [[nodiscard]] DiagTester* diag_tester() noexcept { return diag_tester_.get(); }
  [[nodiscard]] const std::vector<std::unique_ptr<io::can::CanBus>>& buses() const noexcept {
    return buses_;
  }
  /// The shared-memory bus in the tick, or nullptr for a rig without a bus.
  [[nodiscard]] io::bus::BusExchange* bus() noexcept { return bus_.get(); }
  /// The bus as co-simulators reach it, or nullptr (no bus, or not live).
  [[nodiscard]] io::bus::LiveBus* live_bus() noexcept { return live_bus_.get(); }
  [[nodiscard]] const io::bus::LiveBus* live_bus() const noexcept { return live_bus_.get(); }
  /// Adds the rig's stages to their slots of the tick.
  void add_stages(TickPlan& plan);
  [[nodiscard]] const config::RigSpec& settings() const noexcept { return settings_; }
  /// The scenario's objects in the tick, or nullptr (none, or no terrain).
  [[nodiscard]] const WorldObjectsStage* world_objects() const noexcept {
    return world_objects_.get();
  }
  /// The rig's radars in the tick (runtime/sensors/radar_stage.hpp), the rig file's order.
  [[nodiscard]] const std::vector<std::unique_ptr<RadarStage>>& radars() const noexcept {
    return radars_;
  }
  /// The rig's lidars in the tick (runtime/sensors/lidar_stage.hpp), the rig file's order.
  [[nodiscard]] const std::vector<std::unique_ptr<LidarStage>>& lidars() const noexcept {
    return lidars_;
  }

 private:
  config::RigSpec settings_;
  rt::ChannelTable table_;
  std::unique_ptr<models::Vehicle> vehicle_;
  std::unique_ptr<models::VehicleChannels> vehicle_channels_;
  std::vector<std::unique_ptr<io::can::CanBus>> buses_;
  std::unique_ptr<io::bus::BusExchange> bus_;
  std::unique_ptr<io::bus::LiveBus> live_bus_;
  std::unique_ptr<rt::MethodStage<&io::bus::BusExchange::read>> bus_rx_;
  std::unique_ptr<rt::MethodStage<&io::bus::BusExchange::write>> bus_tx_;
  CanStages can_{buses_, table_};
  std::unique_ptr<DiagTester> diag_tester_;
  std::unique_ptr<VehicleStages> vehicle_stages_;
  std::vector<std::unique_ptr<FmuStage>> fmus_;
  std::unique_ptr<WorldObjectsStage> world_objects_;
  std::vector<std::unique_ptr<RadarStage>> radars_;  ///< settings_.radars' order
  std::vector<std::unique_ptr<LidarStage>> lidars_;  ///< settings_.lidars' order
};

}  // namespace hil::runtime
