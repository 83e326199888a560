// The drive models on the real-time path (DESIGN.md §5): electric-drive derivative,
// controller update and outputs, combustion powertrain derivative, update and outputs, each
// inside an RK4 step as the vehicle calls them — no heap allocation after setup. Links the
// allocation counter (tests/support), which replaces operator new.

#include <gtest/gtest.h>

#include "models/drive/electric_drive.hpp"
#include "models/drive/electric_drive_params.hpp"
#include "models/drive/powertrain.hpp"
#include "models/drive/powertrain_params.hpp"
#include "rt_core/rk4.hpp"
#include "tests/support/allocation_counter.hpp"

namespace hil::models {
namespace {

constexpr double kDt = 250e-6;
constexpr int kTicks = 20'000;

TEST(DriveRealTime, ElectricDriveTickDoesNotAllocate) {
  const ElectricDriveParams p = ravon_drive_params();  // setup: may allocate
  ElectricDriveState x = electric_drive_initial_state(p, 0.9);
  ElectricDriveControllerState ctrl;
  WheelValues omega{};
  WheelValues ref{};
  ref.fill(2.0);
  DriveWheelInputs wheels;
  wheels.inertia.fill(1.0);
  double sink = 0.0;

  const std::uint64_t before = hil::testing::allocation_count();
  for (int k = 0; k < kTicks; ++k) {
    const WheelValues duty = electric_drive_controller_sample(p, ctrl, x, omega, ref, kDt);
    wheels.omega = omega;
    for (std::size_t j = 0; j < p.motor_count; ++j) wheels.other_torque[j] = -0.1 * omega[j];
    const ElectricDriveRates r = electric_drive_derivative(p, x, duty, wheels);
    x = rt::rk4_step(
        [&](double, const ElectricDriveState& s) {
          return electric_drive_derivative(p, s, duty, wheels).x_dot;
        },
        k * kDt, x, kDt);
    for (std::size_t j = 0; j < p.motor_count; ++j) {
      omega[j] += kDt * (r.drive_torque[j] + wheels.other_torque[j]) /
                  (wheels.inertia[j] + r.reflected_inertia[j]);
    }
    sink += electric_drive_outputs(p, ctrl, x, omega).battery.voltage;
  }
  const std::uint64_t after = hil::testing::allocation_count();

  EXPECT_EQ(after - before, 0U);
  EXPECT_GT(omega[0], 0.5);  // it did drive
  EXPECT_TRUE(std::isfinite(sink));
}

TEST(DriveRealTime, PowertrainTickDoesNotAllocate) {
  for (const PowertrainParams& p : {hmmwv_powertrain(), autosim_car_powertrain()}) {
    PowertrainState x = powertrain_initial_state(p);
    PowertrainDiscreteState d = powertrain_initial_discrete_state(p);
    WheelValues omega{};
    double sink = 0.0;

    const std::uint64_t before = hil::testing::allocation_count();
    for (int k = 0; k < kTicks; ++k) {
      powertrain_update(p, d, x, {.throttle = 0.5, .shift_up = (k / 400) % 2 == 1}, kDt);
      x = rt::rk4_step(
          [&](double, const PowertrainState& s) {
            return powertrain_derivative(p, s, d, omega).x_dot;
          },
          k * kDt, x, kDt);
      const PowertrainOutputs o = powertrain_outputs(p, d, x, omega);
      for (std::size_t j = 0; j < kMaxWheels; ++j) omega[j] += kDt * o.wheel_torque[j] / 50.0;
      sink += o.engine_speed;
    }
    const std::uint64_t after = hil::testing::allocation_count();

    EXPECT_EQ(after - before, 0U);
    EXPECT_GT(omega[0], 0.1);
    EXPECT_TRUE(std::isfinite(sink));
  }
}

}  // namespace
}  // namespace hil::models
