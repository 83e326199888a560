#pragma once
// Parameters of a whole vehicle: a sprung body on any number
// of axles, two wheels per axle, each axle with its suspension, tires, optional Ackermann
// steering with its servo, and brakes; aerodynamics; sensors. Plain data, filled by the
// rig loader (config/) or by the presets in models/vehicle/vehicle_presets.hpp. SI units, ISO 8855
// body axes (x forward, y left, z up); the world frame is ENU (x east, y north, z up).

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "models/chassis/aero.hpp"
#include "models/chassis/rigid_body.hpp"
#include "models/drive/electric_drive.hpp"
#include "models/drive/powertrain.hpp"
#include "models/sensors/gnss.hpp"
#include "models/sensors/imu.hpp"
#include "models/sensors/wheel_encoder.hpp"
#include "models/steering/steering.hpp"
#include "models/steering/steering_servo.hpp"
#include "models/tire/tire_params.hpp"
#include "models/vehicle/capacities.hpp"

namespace hil::models {

struct AxleSteeringParams {
  bool steered = false;
  /// Ackermann geometry (RAVON §3.3): b = distance from this axle to the line through the
  /// turning centre; track and max wheel angle. Track is taken from the axle.
  AckermannParams ackermann;
  /// True for an axle behind the turning centre that steers opposite to the front (the rear
  /// axle of RAVON's 4WS): there the inner wheel is on the side the wheels point away from.
  bool behind_turning_centre = false;
  SteeringServoParams servo;
};

struct AxleBrakeParams {
  double max_torque = 0.0;   ///< per wheel at brake command 1 [N·m]
  double park_torque = 0.0;  ///< per wheel with the parking brake on [N·m]
  /// The stuck brake as a torsional spring-damper: frequency and damping ratio of the locked
  /// wheel on it (models/chassis/wheel_brake.hpp lock_params) [Hz], [-]. Stiffer is closer to a
  /// rigid lock (a stopping wheel springs back by T/k: 0.2 mrad at 150 Hz for the HMMWV);
  /// RK4 needs 2π·f·h ≤ 1.5 for its step h (checked).
  double lock_frequency_hz = 150.0;
  double lock_damping_ratio = 1.0;
};

struct AxleParams {
  double x = 0.0;      ///< wheel centres ahead of the sprung CG [m]
  double track = 1.5;  ///< distance between the wheel centres [m]
  double z = -0.3;     ///< wheel centres relative to the sprung CG at ζ = 0 [m] (< 0: below)
  double unsprung_mass = 40.0;    ///< per wheel [kg]
  double spring_rate = 30'000.0;  ///< per wheel [N/m]; preload is computed (static ride at ζ = 0)
  double damping = 3'000.0;       ///< per wheel [N·s/m]
  TireParams tire;
  AxleSteeringParams steering;
  AxleBrakeParams brake;
  bool driven = false;  ///< the drive acts on this axle's wheels
};

/// What turns the wheels: torques straight from the inputs (co-simulation, tests),
/// RAVON's electric drive (one geared DC motor per wheel, fed from a battery; the inputs are
/// reference wheel speeds), or a combustion powertrain (throttle, gear levers).
enum class DriveKind : std::uint8_t { torque, electric, combustion };

struct VehicleDriveParams {
  DriveKind kind = DriveKind::torque;
  /// kind electric: motor j drives wheel slot j; motor_count must equal the wheel count.
  ElectricDriveParams electric;
  double initial_soc = 0.9;  ///< battery state of charge at reset [-]
  /// kind combustion: `driven` comes from the axles' `driven` flags.
  PowertrainParams combustion;
};

struct VehicleSensorParams {
  ImuParams imu;
  GnssParams gnss;
  WheelEncoderParams encoder;
};

struct VehicleParams {
  RigidBodyParams sprung;  ///< sprung mass and its inertia about the sprung CG
  std::array<AxleParams, kMaxAxles> axles{};
  std::size_t axle_count = 2;  ///< 1..kMaxAxles, front to rear
  AeroParams aero;
  VehicleDriveParams drive;
  double gravity = 9.80665;  ///< [m/s²], along world −z
  double dt = 250e-6;        ///< the executive's period: one step() advances this much [s]
  /// Longest RK4 step [s]: step() takes substeps() = ⌈dt/max_step⌉ RK4 steps of dt/substeps
  /// (one at periods up to 1 ms; slow loops are sub-stepped automatically).
  double max_step = 1e-3;
  std::uint64_t seed = 1;  ///< master seed of the sensor noise generators
  VehicleSensorParams sensors;
  /// RAVON §3.2: drive on the terrain as a flat road and take the road inclination from the
  /// input road_normal, adding eq. (1)'s force G'. Off: the terrain's own normal and height.
  bool road_normal_from_input = false;

  [[nodiscard]] std::size_t wheel_count() const noexcept { return 2 * axle_count; }
  [[nodiscard]] int substeps() const noexcept {
    return std::max(1, static_cast<int>(std::ceil(dt / max_step - 1e-9)));
  }
};

/// Wheel index of (axle, side): 2·axle + (0 left, 1 right).
[[nodiscard]] constexpr std::size_t wheel_index(std::size_t axle, bool right) noexcept {
  return 2 * axle + (right ? 1 : 0);
}

/// A parameter out of range: its path in VehicleParams (the rig schema uses the same names)
/// and what is expected, e.g. {"axles[1].tire.diameter", "must be > 0 (got -1)"}.
struct ParamProblem {
  std::string field;
  std::string message;
};

/// Setup phase: every parameter out of range or inconsistent, in field order.
[[nodiscard]] std::vector<ParamProblem> check(const VehicleParams& p);

/// Setup phase: throws std::invalid_argument with the first problem of check()
/// ("vehicle parameter axles[1].tire.diameter: must be > 0 (got -1)").
void validate(const VehicleParams& p);

}  // namespace hil::models
