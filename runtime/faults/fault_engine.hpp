#pragma once
// The fault engine (docs/faults.md): the rig's and the scenario's faults resolved to channel
// ids, CAN message hooks and bus flags at setup; on the tick, its fault_in stage decides which
// faults are on (start, stop, pulse) and overrides input channels before the models, its
// fault_out stage overrides output channels after the judge (CAN and telemetry carry the
// fault, the judge keeps the truth). Every fault publishes fault.<name>.active/.count (and
// .original for channel faults) and records its start and stop in the telemetry's events.
//
// Thread-safety: construct and add_stages in the setup phase; the stages run on the RT thread
// (noexcept, no allocation, no locks); report() after the run.

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include <span>
#include "config/fault_spec.hpp"
#include "io/can/mapping/can_bus.hpp"
#include "io/can/mapping/can_bus_spec.hpp"
#include "io/record/telemetry_recorder.hpp"
#include "rt_core/channel_table.hpp"
#include "runtime/tick_plan.hpp"

namespace hil::runtime {

struct FaultReport {
  std::string name;
  std::string what;              ///< "drop of HIL_WheelSpeeds on ecu"
  std::int64_t first_tick = -1;  ///< first tick it was on, −1: never
  std::int64_t last_tick = -1;
  std::uint64_t count = 0;  ///< frames affected (message faults) or ticks on
  bool frames = false;      ///< count is frames
};

/// What another thread may know of a fault while the run goes on (the console's event log).
struct FaultMark {
  const std::string* name = nullptr;  ///< lives as long as the engine
  const std::string* what = nullptr;
  std::int64_t started_at = -1;  ///< first tick on, −1: not yet
  std::int64_t stopped_at = -1;  ///< the tick it stopped, −1: not (yet)
};

namespace detail {
struct Fault;
}

/// What faults act on: the rig's channels, its CAN buses (hooks, silence) with their settings
/// (messages, DBC), its period. Everything must outlive the engine.
struct FaultTargets {
  rt::ChannelTable& table;
  std::span<const std::unique_ptr<io::can::CanBus>> buses;
  std::span<const io::can::CanBusSpec> bus_specs;  ///< bus i's settings
  rt::Nanoseconds period = 0;
};

/// A fault checked and resolved off the RT thread, for FaultEngine::inject.
struct PreparedFault {
  std::unique_ptr<detail::Fault> fault;
  ~PreparedFault();
};

class FaultEngine {
 public:
  /// The channels a rig must add for `faults` (RigBuildSpec::extra_output_channels).
  [[nodiscard]] static std::vector<rt::ChannelSpec> channels(
      const std::vector<config::FaultSpec>& faults);

  /// `faults` already checked (config::check_faults); the table holds their channels.
  /// `seed` seeds the noise (with each fault's name). Throws std::runtime_error naming a fault
  /// whose target the rig lacks.
  FaultEngine(std::vector<config::FaultSpec> faults, const FaultTargets& targets,
              std::uint64_t seed);
  ~FaultEngine();
  FaultEngine(const FaultEngine&) = delete;
  FaultEngine& operator=(const FaultEngine&) = delete;

  /// Setup: fault_in and fault_out in their slots (none without faults unless `always`:
  /// commands may add some).
  void add_stages(TickPlan& plan, bool always = false);

  /// Not the RT thread (callers serialise): `fault` (checked by config::check_faults, no
  /// `after`, a new name) ready for inject(). Faults added this way have no fault.* channels;
  /// their starts and stops are in the events and the summary. Throws std::invalid_argument.
  [[nodiscard]] std::unique_ptr<PreparedFault> prepare(config::FaultSpec fault);
  /// RT (the commands slot): the prepared fault joins the run; false (and `fault` kept) when
  /// the room for 64 such faults, or 16 on one message, is used up.
  bool inject(std::unique_ptr<PreparedFault>& fault) noexcept;
  /// RT: the named fault stops at the next tick's decision; false if none is running.
  bool clear(std::string_view name) noexcept;
  /// Setup: where starts and stops are recorded (nullptr: nowhere).
  void set_event_sink(io::record::TelemetryRecorder* events) noexcept;
  [[nodiscard]] bool empty() const noexcept;

  /// After the run.
  [[nodiscard]] std::vector<FaultReport> report() const;
  /// Any thread, any time: every fault so far (commands' included) with its start and stop.
  void marks(std::vector<FaultMark>& out) const;

 private:
  class Impl;
  std::unique_ptr<Impl> impl_;
};

/// "faults: lost wheel speeds (drop of HIL_WheelSpeeds on ecu) ticks 80000–80399, 10 frames; …"
[[nodiscard]] std::string format_faults(const std::vector<FaultReport>& report);

}  // namespace hil::runtime
