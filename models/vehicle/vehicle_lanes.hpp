#pragma once
// The vehicle derivative's per-wheel contact pass in lanes (MAVS Steps 1–4 and 6 for several
// wheels at once: models/math/lanes.hpp) and the chassis, each in two builds of the same
// operations: for AVX2, where the CPU has AVX2 and FMA (four wheels per instruction, glibc's
// 4-lane kernels), and for SSE2 (wheels by pairs). They agree within the kernels' few ulp, not
// bit for bit (tests/models/vehicle/vehicle_lanes_test.cpp);
// VehicleModel::derivative() picks with its four_lanes(). Pure functions of their arguments:
// any thread, noexcept, no allocation.

#include <array>
#include <cstddef>
#include <new>

#include "models/chassis/chassis.hpp"
#include "models/chassis/wheel_brake.hpp"
#include "models/terrain/surface.hpp"
#include "models/tire/tire.hpp"
#include "models/vehicle/vehicle_model.hpp"

namespace hil::models {

/// What one wheel's contact and brake give, before the drive is known. No defaults: pass 1
/// sets every field but the brake, the pass after it the brake.
struct WheelContact {
  TireOutputs tire;
  Eigen::Vector3d LT;  ///< look-to, world
  Eigen::Vector3d LS;  ///< look-side (left), world
  double cos_d;        ///< steering angle, body axes
  double sin_d;
  double delta;  ///< tire deflection [m]
  WheelBrakeOutput brake;
  Surface surface;
};

/// The contacts of up to kMaxWheels wheels, not cleared: the byte array implicitly creates
/// them (WheelContact is an aggregate, an implicit-lifetime type: C++20 [intro.object]), and
/// pass 1 writes every field of each wheel the vehicle has before anything reads it.
/// Clearing all eight at every RK4 stage cost 2 % of the step.
class WheelContacts {
 public:
  WheelContact& operator[](std::size_t i) noexcept {
    return std::launder(reinterpret_cast<WheelContact*>(bytes_))[i];
  }

 private:
  alignas(WheelContact) std::byte bytes_[sizeof(WheelContact) * kMaxWheels];
};

/// Pass 1 of the derivative for every wheel: four at a time in one AVX2 pass where `avx2_fma`
/// (the CPU must have both), the rest by pairs. Writes every field of each wheel's
/// contact but the brake, and each hub force of `loads`.
void contact_pass(const VehicleModel& model, bool avx2_fma, const StepInputs& in,
                  const VehicleState& x, const ChassisKinematics& k,
                  const std::array<double, kMaxWheels>& tan_delta, WheelContacts& contact,
                  ChassisLoads& loads) noexcept;

/// chassis.kinematics(x) and chassis.derivative(x, k, loads), from their AVX2 build where
/// `avx2_fma` (the same bits as the SSE2 build).
[[nodiscard]] ChassisKinematics chassis_kinematics(const Chassis& chassis, bool avx2_fma,
                                                   const ChassisState& x) noexcept;
[[nodiscard]] ChassisState chassis_derivative(const Chassis& chassis, bool avx2_fma,
                                              const ChassisState& x, const ChassisKinematics& k,
                                              const ChassisLoads& loads) noexcept;

}  // namespace hil::models
