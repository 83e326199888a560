#pragma once
// The vehicle's equations of motion: the MAVS VTI update
// (mavs-vti-model.md Steps 1–6) for every wheel on the terrain, the steering servos and
// Ackermann geometry, brakes, aerodynamics and the chassis, as one derivative of the whole
// state for RK4. Immutable after construction: derivative() is const, noexcept and
// allocation-free, so one model may serve several threads' states.

#include <array>
#include <cstddef>
#include <string_view>

#include "models/chassis/chassis.hpp"
#include "models/chassis/wheel_brake.hpp"
#include "models/terrain/terrain.hpp"
#include "models/tire/tire.hpp"
#include "models/vehicle/vehicle_inputs.hpp"
#include "models/vehicle/vehicle_params.hpp"
#include "models/vehicle/vehicle_state.hpp"

namespace hil::models {

/// The inputs of one step, sanitised and with everything that does not change within the
/// step precomputed (VehicleModel::prepare()).
struct StepInputs {
  std::array<double, kMaxAxles> steering_command{};
  std::array<double, kMaxWheels> drive_torque{};  ///< DriveKind::torque [N·m]
  WheelValues duty{};                             ///< DriveKind::electric: held duties
  double external_voltage = 0.0;  ///< DriveKind::electric, external battery: held bus voltage [V]
  PowertrainDiscreteState powertrain;               ///< DriveKind::combustion: gear, throttle
  std::array<double, kMaxWheels> brake_capacity{};  ///< [N·m]
  std::array<double, kMaxWheels> friction_scale{};
  Eigen::Vector3d wind_world = Eigen::Vector3d::Zero();
  Eigen::Vector3d inclination_force = Eigen::Vector3d::Zero();  ///< heading-aligned axes [N]
  Eigen::Vector3d external_force = Eigen::Vector3d::Zero();     ///< world [N]
  Eigen::Vector3d external_torque = Eigen::Vector3d::Zero();    ///< body [N·m]
  int rejected = 0;  ///< non-finite input values replaced by their neutral value
};

/// What one evaluation found at each wheel (kept for the step's first stage, i.e. the state
/// at the start of the step).
struct WheelDiagnostics {
  TireOutputs tire;
  double deflection = 0.0;     ///< tire deflection δ [m]
  double steer_tangent = 0.0;  ///< tan of the wheel's steering angle [-]
  double brake_torque = 0.0;   ///< on the wheel [N·m]
  double drive_torque = 0.0;   ///< on the wheel [N·m]
  bool brake_sliding = false;
  Surface surface = Surface::dry;
  Eigen::Vector3d force_world = Eigen::Vector3d::Zero();  ///< contact force on the hub [N]
};

struct StageDiagnostics {
  std::array<WheelDiagnostics, kMaxWheels> wheels;
  Eigen::Vector3d aero_force_body = Eigen::Vector3d::Zero();
};

/// The names of derivative()'s two builds in a run's manifest (`vehicle_math`): they agree within
/// a few ulp, not bit for bit, so a replay runs the one its run ran (docs/recording.md).
inline constexpr std::string_view kFourLanesMath = "avx2-fma";
inline constexpr std::string_view kPairsMath = "sse2-pairs";

class VehicleModel {
 public:
  /// Setup phase: checks the parameters (throws std::invalid_argument naming the field and
  /// the expected range) and precomputes the chassis, spring preloads and brake locks.
  /// `terrain` must outlive the model.
  VehicleModel(const VehicleParams& params, const Terrain& terrain);

  /// Sanitises one step's inputs (non-finite → neutral, counted) and precomputes them.
  [[nodiscard]] StepInputs prepare(const VehicleInputs& in) const noexcept;

  /// dx/dt of the whole vehicle. Fills `diag` when not null.
  [[nodiscard]] VehicleState derivative(const StepInputs& in, const VehicleState& x,
                                        StageDiagnostics* diag) const noexcept;

  /// The vehicle at rest (or rolling at `speed` [m/s] straight ahead) on the terrain at
  /// (x, y) heading `yaw` [rad], with every tire at its static deflection and the springs at
  /// their static ride height (ζ = 0). Setup phase.
  [[nodiscard]] VehicleState rest_state(double x, double y, double yaw, double speed) const;

  /// Kinetic + potential + spring energy of chassis, wheels, tires and brakes [J].
  [[nodiscard]] double mechanical_energy(const VehicleState& x) const noexcept;

  /// tan of each wheel's steering angle for the servo angles in x.
  [[nodiscard]] std::array<double, kMaxWheels> steer_tangents(const VehicleState& x) const noexcept;

  [[nodiscard]] const VehicleParams& params() const noexcept { return params_; }
  [[nodiscard]] const Chassis& chassis() const noexcept { return chassis_; }
  [[nodiscard]] const Terrain& terrain() const noexcept { return *terrain_; }
  [[nodiscard]] std::size_t wheel_count() const noexcept { return params_.wheel_count(); }
  [[nodiscard]] double total_mass() const noexcept { return chassis_.total_mass(); }
  /// Static load of each spring at ζ = 0 (the computed preloads) [N].
  [[nodiscard]] double spring_preload(std::size_t wheel) const noexcept {
    return chassis_.params.corners[wheel].spring_preload;
  }
  [[nodiscard]] const TireParams& tire(std::size_t wheel) const noexcept {
    return params_.axles[wheel / 2].tire;
  }
  /// The combustion powertrain with `driven` set from the axles.
  [[nodiscard]] const PowertrainParams& powertrain() const noexcept { return powertrain_; }

  /// Whether derivative() runs its AVX2 build (the wheels' contacts four per instruction with
  /// glibc's 4-lane kernels, the chassis) or its SSE2 one (contacts by pairs): within the
  /// kernels' few ulp of each other, not the same bits (tested). AVX2 by default where the CPU
  /// has AVX2 and FMA; the binary itself runs on any x86-64. A run's manifest says which
  /// (`vehicle_math`).
  [[nodiscard]] bool four_lanes() const noexcept { return four_lanes_; }
  /// Which of the two: kFourLanesMath or kPairsMath.
  [[nodiscard]] std::string_view math() const noexcept {
    return four_lanes_ ? kFourLanesMath : kPairsMath;
  }
  /// Two lanes even where four would run (`on` = false): the replay of a run that ran by pairs,
  /// tests, benchmarks. Setup phase.
  void use_four_lanes(bool on) noexcept;

 private:
  VehicleParams params_;
  const Terrain* terrain_;
  Chassis chassis_;
  PowertrainParams powertrain_;
  std::array<WheelBrakeLock, kMaxWheels> brake_lock_{};
  std::array<double, kMaxAxles> max_central_angle_{};
  bool four_lanes_ = false;
};

}  // namespace hil::models
