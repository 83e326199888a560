// DC permanent-magnet motor and gear (models/drive/dc_motor.hpp) against the analytic solutions of
// the armature and rotor equations, integrated with rt_core RK4.

#include "models/drive/dc_motor.hpp"

#include <Eigen/Core>
#include <cmath>

#include <gtest/gtest.h>

#include "models/drive/electric_drive_params.hpp"
#include "rt_core/rk4.hpp"

namespace hil::models {
namespace {

constexpr double kVolts = 24.0;

/// Free shaft: state (i, ω_m), no load on the gear output.
/// The armature and rotor poles are complex with real part −(R/L + b/J)/2 ≈ −120 1/s: 0.3 s
/// leaves e^−36 of the transient.
Eigen::Vector2d run_free_shaft(const DcMotorParams& m, double u, double seconds, double dt) {
  const GearParams gear;
  auto f = [&](double, const Eigen::Vector2d& x) -> Eigen::Vector2d {
    return {motor_current_rate(m, u, x[0], x[1]), motor_speed_rate(m, gear, x[0], x[1], 0.0)};
  };
  Eigen::Vector2d x = Eigen::Vector2d::Zero();
  const int steps = static_cast<int>(std::lround(seconds / dt));
  for (int k = 0; k < steps; ++k) x = rt::rk4_step(f, k * dt, x, dt);
  return x;
}

TEST(DcMotor, FreeShaftSteadySpeedIsVoltageMinusDropOverK) {
  DcMotorParams m = ravon_drive_unit().motor;
  m.coulomb_friction = 0.0;  // the viscous-only model: a closed form exists
  const Eigen::Vector2d x = run_free_shaft(m, kVolts, 0.3, 1e-5);
  const double i = x[0];
  const double w = x[1];
  // Requirement: ω = (u − R·i)/k within 0.5 %
  EXPECT_NEAR(w, (kVolts - m.resistance * i) / m.torque_constant, 0.005 * w);
  // Closed form of the steady state: k·i = b·ω and u = R·i + k·ω ⇒ ω = k·u/(k² + R·b)
  const double k = m.torque_constant;
  EXPECT_NEAR(w, k * kVolts / (k * k + m.resistance * m.viscous_friction), 1e-6 * w);
  EXPECT_NEAR(i, m.viscous_friction * w / k, 1e-6 * i);
}

TEST(DcMotor, FreeShaftWithCoulombFrictionStillBalances) {
  const DcMotorParams m = ravon_drive_unit().motor;  // τ_c = 0.12 N·m
  const Eigen::Vector2d x = run_free_shaft(m, kVolts, 0.3, 1e-5);
  EXPECT_NEAR(x[1], (kVolts - m.resistance * x[0]) / m.torque_constant, 0.005 * x[1]);
  EXPECT_NEAR(m.torque_constant * x[0], motor_friction_torque(m, x[1]), 1e-9);
}

TEST(DcMotor, StallCurrentIsVoltageOverResistance) {
  const DcMotorParams m = ravon_drive_unit().motor;
  auto f = [&](double, const double& i) { return motor_current_rate(m, kVolts, i, 0.0); };
  double i = 0.0;
  constexpr double kDt = 1e-5;
  for (int k = 0; k < 10'000; ++k) i = rt::rk4_step(f, k * kDt, i, kDt);  // 24 τ_e
  EXPECT_NEAR(i, kVolts / m.resistance, 1e-6 * kVolts / m.resistance);
}

TEST(DcMotor, ElectricalTimeConstantAt63Percent) {
  const DcMotorParams m = ravon_drive_unit().motor;
  const double tau = m.inductance / m.resistance;  // 4.17 ms
  const double target = (1.0 - std::exp(-1.0)) * kVolts / m.resistance;
  auto f = [&](double, const double& i) { return motor_current_rate(m, kVolts, i, 0.0); };
  const double dt = tau / 1000.0;
  double i = 0.0;
  double t63 = -1.0;
  for (int k = 0; k < 5000 && t63 < 0.0; ++k) {
    const double next = rt::rk4_step(f, k * dt, i, dt);
    if (next >= target) t63 = (k + (target - i) / (next - i)) * dt;  // linear between samples
    i = next;
  }
  EXPECT_NEAR(t63, tau, 0.02 * tau);
}

TEST(Gear, LoadTorqueCrossesTheGearWithEfficiencyByDirection) {
  const DcMotorParams m = ravon_drive_unit().motor;
  const GearParams g{.ratio = 59.0, .efficiency = 0.9};
  const double i = 10.0;
  const double w = 100.0;
  const double base = motor_shaft_torque(m, i, w);
  // Wheel absorbs power: the motor supplies τ_load/(N·η)
  EXPECT_NEAR(motor_speed_rate(m, g, i, w, 50.0) * m.rotor_inertia, base - 50.0 / (59.0 * 0.9),
              1e-12);
  // Wheel back-drives the motor: only τ_load·η/N arrives at the rotor
  EXPECT_NEAR(motor_speed_rate(m, g, i, w, -50.0) * m.rotor_inertia, base + 50.0 * 0.9 / 59.0,
              1e-12);
}

TEST(Gear, GearedDriveChoosesEfficiencyOnTheSidePowerFlows) {
  const DcMotorParams m = ravon_drive_unit().motor;
  const GearParams g{.ratio = 59.0, .efficiency = 0.9};
  // Motoring: the motor pushes a wheel that resists.
  const GearedDrive motoring = geared_drive(m, g, 5.0, 2.0, -100.0, 1.0);
  EXPECT_DOUBLE_EQ(motoring.efficiency, 0.9);
  EXPECT_DOUBLE_EQ(motoring.drive_torque, 0.9 * 59.0 * 5.0);
  EXPECT_DOUBLE_EQ(motoring.reflected_inertia, 0.9 * m.rotor_inertia * 59.0 * 59.0);
  // Regenerating: the wheel (pushed downhill) drives a braking motor.
  EXPECT_DOUBLE_EQ(geared_drive(m, g, -5.0, 2.0, 100.0, 1.0).efficiency, 1.0 / 0.9);
  // Coasting with the current off: the spinning rotor (1.4 kg·m² at the wheel) drives the
  // wheel against its losses although the rotor's own friction torque is negative.
  EXPECT_DOUBLE_EQ(geared_drive(m, g, -0.05, 2.0, -20.0, 1.0).efficiency, 0.9);
}

TEST(Gear, GearLossIsNeverNegative) {
  // Whatever the torques, the gear of geared_drive() dissipates: τ_in·ω_m − τ_out·ω ≥ 0.
  const DcMotorParams m = ravon_drive_unit().motor;
  const GearParams g{.ratio = 59.0, .efficiency = 0.9};
  const double I = 1.0;
  for (int n_tau = -20; n_tau <= 20; ++n_tau) {
    const double tau_m = 0.5 * n_tau;
    for (int n_other = -24; n_other <= 24; ++n_other) {
      const double other = 25.0 * n_other;
      for (const double w : {-3.0, -0.1, 0.1, 3.0}) {
        const GearedDrive d = geared_drive(m, g, tau_m, w, other, I);
        const double a = (d.drive_torque + other) / (I + d.reflected_inertia);
        const double tau_in = tau_m - m.rotor_inertia * g.ratio * a;
        const double tau_out = d.drive_torque - d.reflected_inertia * a;
        const double loss = tau_in * g.ratio * w - tau_out * w;
        EXPECT_GE(loss, -1e-9) << tau_m << " " << other << " " << w;
        // τ_out = η_eff·N·τ_in, so the loss is |1 − η_eff|·|τ_in·ω_m|
        const double p_in = std::abs(tau_in * g.ratio * w);
        EXPECT_NEAR(loss, std::abs(1.0 - d.efficiency) * p_in, 1e-9 * (1.0 + p_in));
      }
    }
  }
}

}  // namespace
}  // namespace hil::models
