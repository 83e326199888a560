#pragma once
// The vehicle: the model (models/vehicle/vehicle_model.hpp), its
// state, its sensors and its outputs. A tick is three calls, as the rig's stages make them
// (runtime/vehicle_stage.hpp): take_inputs() every tick, control() — the drive's controllers —
// on every controller_decimation-th tick, advance() every tick: the whole state by one
// executive period with RK4 (optionally in sub-steps), then the sensors. step() is the three
// for a vehicle used on its own. Setup (constructor, reset) may allocate and throw; the rest
// is noexcept, allocation-free and deterministic: the same inputs give the same output bits.
// Not thread-safe: one RT thread owns a Vehicle.

#include <array>
#include <cstdint>

#include "models/sensors/gnss.hpp"
#include "models/sensors/imu.hpp"
#include "models/vehicle/vehicle_model.hpp"

namespace hil::models {

struct WheelOutputs {
  double speed = 0.0;              ///< ω [rad/s]
  double angle = 0.0;              ///< θ, turned since the start [rad]
  double encoder_counts = 0.0;     ///< floor(θ·cpr/2π) [-]
  double steer_angle = 0.0;        ///< δ [rad], + left
  double suspension_travel = 0.0;  ///< ζ [m], + compression
  // Contact, at the start of the step (the step's first RK4 stage):
  double normal_force = 0.0;        ///< N [N]
  double longitudinal_force = 0.0;  ///< F∥ [N]
  double lateral_force = 0.0;       ///< F⊥ [N]
  double slip = 0.0;                ///< s [-]
  double slip_angle = 0.0;          ///< α [rad]
  double tire_deflection = 0.0;     ///< δ_tire [m]
  double sinkage = 0.0;             ///< soft soil (Bekker–Wong): sinkage z [m]; else 0
  double brake_torque = 0.0;        ///< on the wheel [N·m]
  double drive_torque = 0.0;        ///< on the wheel [N·m]
};

struct VehicleOutputs {
  std::int64_t tick = 0;  ///< steps taken
  double time = 0.0;      ///< tick·dt [s]
  std::array<WheelOutputs, kMaxWheels> wheels{};
  Eigen::Vector3d position = Eigen::Vector3d::Zero();        ///< CG, world ENU [m]
  Eigen::Vector3d velocity_world = Eigen::Vector3d::Zero();  ///< [m/s]
  Eigen::Vector3d velocity_body = Eigen::Vector3d::Zero();   ///< x forward, y left [m/s]
  double roll = 0.0;   ///< Tait–Bryan z-y-x (ISO 8855): φ about x [rad]
  double pitch = 0.0;  ///< θ about y, + nose down [rad]
  double yaw = 0.0;    ///< ψ about z, from world x (east) [rad]
  Eigen::Vector3d angular_velocity = Eigen::Vector3d::Zero();   ///< body [rad/s]
  Eigen::Vector3d acceleration_body = Eigen::Vector3d::Zero();  ///< mean over the step [m/s²]
  std::array<double, kMaxAxles> steering_angle{};               ///< servo central angles d [rad]
  ImuSample imu;
  GnssFix gnss;
  ElectricDriveOutputs electric;                              ///< DriveKind::electric
  PowertrainOutputs powertrain;                               ///< DriveKind::combustion
  Eigen::Vector3d aero_force_body = Eigen::Vector3d::Zero();  ///< [N]
  std::int64_t rejected_inputs = 0;     ///< non-finite inputs replaced since the start
  bool safe_state = false;              ///< latched: see Vehicle::enter_safe_state()
  double safe_state_since = 0.0;        ///< time it was latched [s]
  std::int64_t safe_state_entries = 0;  ///< times it was latched since the start
};

class Vehicle {
 public:
  /// Setup phase: validates the parameters (std::invalid_argument) and places the vehicle at
  /// rest at the world origin heading east (+x). `terrain` must outlive the vehicle.
  Vehicle(const VehicleParams& params, const Terrain& terrain);

  /// Setup phase: puts the vehicle at (x, y) heading `yaw`, rolling at `speed` [m/s] (0: at
  /// rest), tires at their static deflection; resets time, sensors and outputs.
  void reset(double x, double y, double yaw, double speed);
  /// Replaces the state (tests, replay); time is unchanged.
  void set_state(const VehicleState& x) noexcept { x_ = x; }
  /// Setup phase: VehicleModel::use_four_lanes() (a replay runs the build its run ran).
  void use_four_lanes(bool on) noexcept { model_.use_four_lanes(on); }

  /// The tick's inputs, for control() and advance(): the drive's references and an external
  /// battery's voltage are held (a non-finite value holds the last one and counts as rejected).
  void take_inputs(const VehicleInputs& inputs) noexcept;
  /// The drive's controllers sample (electric drive: the cascade controllers, at
  /// controller_decimation·dt) on the state at the start of this tick's step; their duties
  /// hold until the next sample. Call on the ticks controller_due() names, before advance().
  void control() noexcept;
  /// Whether tick `tick` is one of the controllers' (every controller_decimation-th from 0).
  [[nodiscard]] bool controller_due(std::int64_t tick) const noexcept;
  /// The controllers' decimation: control() runs every this many ticks.
  [[nodiscard]] std::uint32_t controller_decimation() const noexcept;
  /// Tick `tick` → tick + 1: RK4 over the whole state with the inputs taken, then the sensors
  /// and outputs (time (tick + 1)·dt). A state that is not finite after the step latches the
  /// safe state instead (DESIGN.md §5).
  void advance(std::int64_t tick) noexcept;
  /// One tick of a vehicle used on its own (tests, benchmarks, tools): take_inputs(), control()
  /// when due, advance(), its ticks counted from the last reset().
  void step(const VehicleInputs& inputs) noexcept;

  /// The safe state (DESIGN.md §5), latched until reset(): the vehicle at rest at its last
  /// finite pose, drive controllers off, every later step holds it (time goes on). Called by
  /// step() on a non-finite state and by the rig on a non-finite output. Allocation-free.
  void enter_safe_state() noexcept;

  [[nodiscard]] const VehicleOutputs& outputs() const noexcept { return out_; }
  [[nodiscard]] const VehicleState& state() const noexcept { return x_; }
  [[nodiscard]] const VehicleModel& model() const noexcept { return model_; }
  [[nodiscard]] const VehicleParams& params() const noexcept { return model_.params(); }
  [[nodiscard]] double mechanical_energy() const noexcept { return model_.mechanical_energy(x_); }

 private:
  void update_outputs(const VehicleState& before, const StepInputs& in) noexcept;
  /// One step in the safe state: at rest, no inputs; outputs from the rest state.
  void hold_safe_state(std::int64_t tick) noexcept;
  /// Drive controllers and gear logic back to their start; outputs of x_ with no inputs.
  void at_rest_with_drive_off() noexcept;
  /// The held drive inputs of this step: duties, the external voltage, the gear logic.
  void drive_inputs(StepInputs& in) noexcept;

  VehicleModel model_;
  VehicleState x_;
  Imu imu_;
  Gnss gnss_;
  ElectricDriveControllerState drive_controller_;
  PowertrainDiscreteState powertrain_;
  VehicleInputs inputs_;     ///< the tick's (take_inputs)
  int rejected_taken_ = 0;   ///< non-finite drive inputs take_inputs() replaced this tick
  WheelValues speed_ref_{};  ///< last finite reference per wheel (electric)
  /// External battery: the last finite bus voltage received (zero-order hold) [V]; from
  /// reset() the built-in battery's rest voltage (electric_drive_rest_voltage()).
  double external_voltage_ = 0.0;
  bool lever_pressed_ = false;  ///< gear request: a lever was pressed on the last tick
  StageDiagnostics diag_;
  VehicleOutputs out_;
  struct Pose {
    double x = 0.0, y = 0.0, yaw = 0.0;
  } last_finite_pose_;  ///< where the safe state puts the vehicle
};

}  // namespace hil::models
