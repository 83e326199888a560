#pragma once
// Loads a scenario file (config/scenario/scenario.proto, hil_rigs/scenarios/*.pbtxt) for a rig: the
// rig file and its overlays, then the scenario's `rig` block on top (config's overlay rules),
// then the scenario itself, converted to plain settings: the path and speed plan the virtual
// ECU drives, the timed events, the gates (the ISO 3888-1 course generated), the footprint
// the lane gates check. Every problem is a ConfigError with file:line:column and the field,
// in the rig files or the scenario file. Setup phase (allocates); never throws for bad input.

#include <cstdint>
#include <filesystem>
#include <limits>
#include <optional>
#include <span>
#include <string>
#include <variant>
#include <vector>

#include "config/rig/host_facts.hpp"
#include "config/rig/loader.hpp"
#include "config/scenario/iso3888_course.hpp"
#include "config/text/config_error.hpp"
#include "config/text/config_text.hpp"
#include "models/world/object_motion.hpp"

namespace hil::config {

struct ScenarioPose {
  double x = 0.0, y = 0.0, yaw = 0.0;  ///< world [m], [rad]
  double speed = 0.0;                  ///< [m/s]
};

struct SpeedStep {
  double at_s = 0.0;   ///< [s]
  double speed = 0.0;  ///< [m/s]
};

/// What the virtual ECU drives: a path in the course frame and a speed plan.
struct DrivingPlan {
  std::vector<CoursePoint> path;  ///< ≥ 2 points, consecutive points apart
  /// Target speed from path point i on (path and lane change); empty: by time (`steps`).
  std::vector<double> point_speed;
  std::vector<SpeedStep> steps;   ///< target speed by time (straight)
  bool stop_at_end = false;       ///< brake to stop at the path's last point
  double max_acceleration = 1.0;  ///< [m/s²]
  double max_deceleration = 1.5;  ///< [m/s²]
};

struct EventSpec {
  double at_s = 0.0;
  std::string channel;
  double value = 0.0;
  double ramp_s = 0.0;
  std::vector<std::uint8_t> uds;  ///< instead of a channel: a UDS request for the rig's tester
};

struct LaneGate {
  double x_min = 0.0, x_max = 0.0, y_min = 0.0, y_max = 0.0;
};
struct SpeedReachedGate {
  double speed = 0.0, tolerance = 0.02, by_s = 0.0, hold_s = 1.0;
};
struct NoRollbackGate {
  double max_m = 0.0;
};
struct MaxDeviationGate {
  double max_m = 0.0, from_s = 0.0, to_s = 0.0;
};
struct DistanceReachedGate {
  double distance = 0.0, by_s = 0.0;
};
struct StoppedGate {
  double by_s = 0.0, max_speed = 0.05;
};
/// A DTC's statusOfDTC byte shows `bits` (all set; `clear`: none set) in [from_s, to_s].
struct DtcGate {
  /// What it shows, as the file said it (for messages); `mask`: the bits of `mask` set.
  enum class Status : std::uint8_t { failed, pending, confirmed, clear, mask };
  double from_s = 0.0, to_s = 0.0;
  std::uint32_t code = 0;  ///< 24 bits
  Status status = Status::confirmed;
  std::uint8_t bits = 0x08;  ///< testFailed 0x01, pendingDTC 0x04, confirmedDTC 0x08, a mask
  bool clear = false;        ///< none of `bits` set (CLEAR: 0x0D)
  bool stays = false;        ///< at every observation in the window, not at one
};
/// Soft soil: fails when speed < min_speed with mean wheel slip > min_slip for hold_s (from
/// from_s), or a wheel sinks deeper than max_sinkage (+∞: no limit).
struct NotBoggedDownGate {
  double min_speed = 0.3, min_slip = 0.5, hold_s = 2.0, from_s = 0.0;
  double max_sinkage = std::numeric_limits<double>::infinity();
};
using GateCheck = std::variant<LaneGate, SpeedReachedGate, NoRollbackGate, MaxDeviationGate,
                               DistanceReachedGate, StoppedGate, DtcGate, NotBoggedDownGate>;

struct GateSpec {
  std::string name;
  GateCheck check;
};

/// The vehicle's outline the lane gates check: a rectangle around the wheels' contact
/// patches, in body axes relative to the CG [m].
struct Footprint {
  double x_front = 1.0, x_rear = -1.0;  ///< front and rear edges
  double half_width = 0.75;
};

/// The virtual ECU's tuning; unset values are derived from the vehicle (docs/ecu.md).
struct ControllerSpec {
  std::optional<double> kp, ki, kd;  ///< path follower [1/m²], [1/m³], [1/m]
  /// Combustion speed cascade (tools/ecu/speed_controller.hpp) [1/s], [s²/m], [s/m]
  std::optional<double> speed_gain, pedal_kp, pedal_ki;
  /// Stanley steering of a front-steered vehicle (tools/ecu/stanley_follower.hpp)
  std::optional<double> stanley_k, stanley_k_soft, stanley_k_yaw, stanley_k_ag;
};

struct ScenarioSpec {
  std::string name;  ///< the file's stem: "double_lane_change"
  std::string file;  ///< as the caller named it
  std::string description;
  double duration_s = 0.0;
  ScenarioPose start;
  DrivingPlan drive;
  std::vector<EventSpec> events;
  std::vector<GateSpec> gates;
  /// The rigs it is for (empty: any) and where the file says so ("file:line:column").
  std::vector<std::string> rigs;
  config::ConfigError rigs_error;  ///< located at the field, for a rig not in the list
  /// The scenario's own faults (config/fault.proto), after the rig's (RigSpec::faults).
  std::vector<config::FaultSpec> faults;
  Footprint footprint;
  ControllerSpec controller;
  /// Marker channels the events create ("scenario.…"): RuntimeOptions::extra_input_channels.
  std::vector<std::string> marker_channels;
  /// What else is in the world, world frame (config/scenario/scenario_objects.hpp): the file's
  /// objects, then the lane gates' cones ("cone_<n>", course_cone set).
  std::vector<models::MovingObjectSpec> objects;
};

/// Either both settings or the reasons there are none.
struct ScenarioLoadResult {
  std::optional<ScenarioSpec> scenario;
  std::optional<config::RigSpec> rig;  ///< the rig with the scenario's `rig` block applied
  config::ConfigErrors errors;
  /// The scenario's `rigs` and where (ScenarioSpec::rigs), also when it has errors on this rig
  /// (a dtc gate on a rig without diagnostics): require_rig() refuses another rig first.
  std::vector<std::string> rigs;
  config::ConfigError rigs_error;
  [[nodiscard]] bool ok() const noexcept { return scenario.has_value() && rig.has_value(); }
};

/// Loads `scenario` for the rig `rig` (+ `rig_overlays`). A file that cannot be read is an
/// error naming it and the OS reason. Thread-safe.
[[nodiscard]] ScenarioLoadResult load_scenario(
    const std::filesystem::path& scenario, const std::filesystem::path& rig,
    std::span<const std::filesystem::path> rig_overlays = {},
    const config::Machine& machine = config::this_machine());

/// When the loaded scenario names the rigs it is for (`rigs`) and `rig` (a rig's name, as
/// --rig takes it) is not one of them: a located error in `result`, which is then not ok();
/// it replaces the errors of checking the scenario against a rig it is not for.
/// (A replay does not ask: its rig is the run directory's.)
void require_rig(ScenarioLoadResult& result, std::string_view rig);

/// The same with the scenario's text in memory (tests, fuzzing).
[[nodiscard]] ScenarioLoadResult load_scenario_text(
    config::ConfigText scenario, const std::filesystem::path& rig,
    std::span<const std::filesystem::path> rig_overlays = {},
    const config::Machine& machine = config::this_machine());

/// A scenario made in code: straight ahead along the start heading at `speed` [m/s] for
/// `duration_s` [s], no events, no gates (`hilsim ecu --speed`). Throws
/// std::invalid_argument when the rig has no vehicle.
[[nodiscard]] ScenarioSpec constant_speed_scenario(const config::RigSpec& rig, double speed,
                                                   double duration_s);

/// Whether a parsed text looks like a scenario rather than a rig file: it sets one of the
/// scenario's own fields (duration_s, drive, gates, events, start). For `hilsim check`.
[[nodiscard]] bool looks_like_scenario(std::string_view text);

}  // namespace hil::config
