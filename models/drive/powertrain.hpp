#pragma once
// Combustion powertrain for rigs that need one (HMMWV, AutoSim-style cars): engine →
// torque converter or clutch → gearbox → propshaft → open differentials → driven wheels
// (autosim-physics-thesis.txt §4.4, T_drive = T_engine·r_g·r_d·n). docs/models.md
// "Combustion powertrain".
//
// Continuous state (PowertrainLayout): engine speed ω_e; propshaft speed ω_p (gearbox output;
// in gear the gearbox input, turbine or clutch disc, turns rigidly at ω_in = r_g·ω_p); the
// twist φ_s of the driveline compliance between propshaft and differentials; the twist φ_c of
// the clutch spring (clutch coupling only). The compliance gives the driveline its own DOF,
// so the wheels see a torque and no reflected inertia, and an open differential splits that
// torque equally however differently the wheels spin.
//
// Integration with the vehicle (the vehicle owns the states and the RK4 step):
//  1. At each tick boundary: powertrain_update(p, discrete, x, {throttle, up, down}, dt)
//     (throttle and gear held across the step; gear changes happen only here).
//  2. In every RK4 stage: rates = powertrain_derivative(p, x, discrete, wheel_omega);
//     d(x)/dt = rates.x_dot, and each driven wheel j gets rates.drive_torque[j] in
//     I_wheel·dω_j/dt = drive_torque[j] + brake − r_eff·Fx − β·ω.
//  3. After the step: powertrain_outputs(p, discrete, x, wheel_omega) for the channels.
// Everything is noexcept and allocation-free; pure functions over caller-owned values.

#include <Eigen/Core>
#include <array>

#include "models/drive/compliant_coupling.hpp"
#include "models/drive/engine.hpp"
#include "models/drive/torque_converter.hpp"
#include "models/drive/transmission.hpp"
#include "models/vehicle/wheel_values.hpp"

namespace hil::models {

struct PowertrainLayout {
  static constexpr int kEngineSpeed = 0;     ///< ω_e [rad/s]
  static constexpr int kPropshaftSpeed = 1;  ///< ω_p [rad/s]
  static constexpr int kShaftTwist = 2;      ///< φ_s [rad], at the propshaft
  static constexpr int kClutchTwist = 3;     ///< φ_c [rad]
  static constexpr int kSize = 4;
};

using PowertrainState = Eigen::Matrix<double, PowertrainLayout::kSize, 1>;

enum class PowertrainCoupling { torque_converter, clutch };

/// Automatic dry clutch: bites with engine speed (launch) and re-engages after each shift.
struct ClutchParams {
  CompliantCouplingParams spring{.stiffness = 2000.0, .damping = 8.0};
  double max_torque = 300.0;          ///< capacity fully engaged [N·m]
  double engage_start_speed = 104.7;  ///< engine speed where it starts to bite [rad/s]
  double engage_full_speed = 157.1;   ///< fully engaged above this engine speed [rad/s]
};

struct PowertrainParams {
  EngineParams engine;
  PowertrainCoupling coupling = PowertrainCoupling::clutch;
  TorqueConverterParams torque_converter;
  ClutchParams clutch;
  TransmissionParams transmission;
  double input_inertia = 0.05;  ///< turbine or clutch disc + gearbox input [kg·m²]
  double output_inertia = 0.1;  ///< gearbox output + propshaft [kg·m²], > 0
  CompliantCouplingParams driveshaft{.stiffness = 1000.0, .damping = 20.0};  ///< at ω_p
  std::array<bool, kMaxWheels> driven{};  ///< slots driven through the open differentials
};

struct PowertrainCommand {
  double throttle = 0.0;    ///< accelerator ∈ [0, 1]; non-finite holds the previous one
  bool shift_up = false;    ///< lever state (a press shifts once)
  bool shift_down = false;  ///< lever state
};

struct PowertrainDiscreteState {
  TransmissionState transmission;
  double throttle = 0.0;  ///< held accelerator
};

struct PowertrainRates {
  PowertrainState x_dot = PowertrainState::Zero();
  WheelValues drive_torque{};  ///< on each driven wheel [N·m]
  double engine_torque = 0.0;  ///< T_e [N·m]
  double pump_torque = 0.0;    ///< taken from the engine by the coupling [N·m]
  double input_torque = 0.0;   ///< handed to the gearbox input [N·m]
  double shaft_torque = 0.0;   ///< driveline compliance torque at the propshaft [N·m]
  double speed_ratio = 0.0;    ///< torque converter SR (0 with a clutch) [-]
};

struct PowertrainOutputs {
  double engine_speed = 0.0;     ///< [rad/s]
  double engine_torque = 0.0;    ///< [N·m]
  double throttle = 0.0;         ///< effective (governor, fuel cut) [-]
  int gear = 0;                  ///< −1 R, 0 N, 1..n
  double input_speed = 0.0;      ///< gearbox input ω_in = r_g·ω_p [rad/s]
  double propshaft_speed = 0.0;  ///< [rad/s]
  double speed_ratio = 0.0;      ///< torque converter SR [-]
  double coupling_torque = 0.0;  ///< into the gearbox input [N·m]
  double shaft_torque = 0.0;     ///< [N·m]
  WheelValues wheel_torque{};    ///< [N·m]
};

/// Engine at idle, everything else at rest.
[[nodiscard]] PowertrainState powertrain_initial_state(const PowertrainParams& p) noexcept;
[[nodiscard]] PowertrainDiscreteState powertrain_initial_discrete_state(
    const PowertrainParams& p) noexcept;

/// Tick boundary: hold the throttle, run the gear logic (transmission_update()).
void powertrain_update(const PowertrainParams& p, PowertrainDiscreteState& d,
                       const PowertrainState& x, const PowertrainCommand& cmd, double dt) noexcept;

/// dx/dt and the torque on each driven wheel, for the held throttle and gear.
[[nodiscard]] PowertrainRates powertrain_derivative(const PowertrainParams& p,
                                                    const PowertrainState& x,
                                                    const PowertrainDiscreteState& d,
                                                    const WheelValues& wheel_omega) noexcept;

[[nodiscard]] PowertrainOutputs powertrain_outputs(const PowertrainParams& p,
                                                   const PowertrainDiscreteState& d,
                                                   const PowertrainState& x,
                                                   const WheelValues& wheel_omega) noexcept;

}  // namespace hil::models
