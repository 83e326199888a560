#pragma once
// One tick of hilsim, declared once (DESIGN.md §3; docs/architecture.md "One tick"): the
// product's slots in the order they run, each with its phase. Every per-tick step of the
// product has its slot here; a component adds its stage to its slot (a component acting in
// two phases adds one stage per phase) and the plan orders the executive's list. Nothing is
// placed by matching names.
//
// Setup phase only (allocates); the executive runs what entries() returns.

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "rt_core/stage.hpp"

namespace hil::runtime {

enum class Slot : std::uint8_t {
  // read: what arrived, into input channels
  peer_rx,          ///< an in-process peer (the built-in ECU) reads what the rig sent it
  can_rx,           ///< CAN buses drain and decode into input channels
  bus_rx,           ///< the shared-memory/UDP bus: applied snapshots into input channels
  scenario_events,  ///< scenario events set their channels (they win over a frame)
  commands,         ///< operator and API commands (they win over events)
  fault_in,         ///< faults on input channels, before the models see them
  // update: the models
  peer_update,  ///< the in-process peer computes (the built-in ECU's driver)
  models,       ///< the vehicle: its inputs, its drive's controllers, its step
  fmu,          ///< co-simulated FMUs take theirs, at their own rate
  world,        ///< the scenario's objects move (runtime/world/)
  sensors,      ///< range sensors sample the tick's world: lidar, radar (runtime/sensors/)
  // write: what leaves, and what watches
  judge,         ///< the scenario's judge observes the truth, before any output fault
  fault_out,     ///< faults on output channels (CAN and telemetry carry them)
  peer_tx,       ///< the in-process peer sends
  can_tx,        ///< CAN buses encode and send what is due
  bus_tx,        ///< the shared-memory/UDP bus publishes its output regions
  publish,       ///< the console's tap: the channel snapshot, the streamed ticks
  record,        ///< telemetry and CAN log recorders
  tick_counter,  ///< the count of complete ticks (systemd's watchdog)
};
inline constexpr std::size_t kSlotCount = static_cast<std::size_t>(Slot::tick_counter) + 1;

/// The phase a slot's stages run in.
[[nodiscard]] rt::Phase phase_of(Slot slot) noexcept;
/// "can_rx", … (the slot's name in docs and timing reports).
[[nodiscard]] std::string_view to_string(Slot slot) noexcept;

class TickPlan {
 public:
  /// Adds `stage` to `slot`; it runs on ticks k with k mod decimation == offset. Stages of
  /// one slot run in the order they were added.
  void add(Slot slot, std::string name, rt::Stage& stage, std::uint32_t decimation = 1,
           std::uint32_t offset = 0);

  /// The executive's stage list: by slot, then by order of adding.
  [[nodiscard]] std::vector<rt::StageEntry> entries() const;

 private:
  std::array<std::vector<rt::StageEntry>, kSlotCount> by_slot_;
};

}  // namespace hil::runtime
