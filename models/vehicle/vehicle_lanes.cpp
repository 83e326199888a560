#include "models/vehicle/vehicle_lanes.hpp"

#include "models/math/lanes.hpp"
#include "models/math/vec3_lanes.hpp"
#include "models/tire/tire_lanes.hpp"

namespace hil::models {

namespace {

using L = VehicleLayout;

/// Pass 1 for wheels first … first + W − 1, wheel first + l in lane l (V of width W): MAVS
/// Steps 1–4 and 6, each lane in Eigen's order of operations (with vmath::Portable the bits of one
/// wheel at a time; models/math/vec3_lanes.hpp). Writes every field of their contacts but the
/// brake, and their hub forces.
template <lanes::Lanes V, class Math = vmath::Portable>
void contacts_in_lanes(const VehicleModel& model, std::size_t first, const StepInputs& in,
                       const VehicleState& x, const ChassisKinematics& k,
                       const std::array<double, kMaxWheels>& tan_delta, WheelContacts& contact,
                       ChassisLoads& loads) noexcept {
  constexpr int kLanes = lanes::kWidth<V>;
  using Vec3 = lanes::Vec3Of<V>;
  const auto wheel = [first](int l) { return first + static_cast<std::size_t>(l); };
  const auto per_wheel = [&](auto&& value) {
    return lanes::gather<V>([&](int l) { return value(wheel(l)); });
  };
  // Step 1: the steered wheel frame. Heading and axle in body axes from tan δ.
  const V one = lanes::splat<V>(1.0);
  const V tan_d = per_wheel([&](std::size_t w) { return tan_delta[w]; });
  const V cos_d = one / lanes::sqrt(one + tan_d * tan_d);
  const V sin_d = tan_d * cos_d;
  const std::array<TerrainSample, kLanes> ground = lanes::array_of<V>([&](int l) {
    const Eigen::Vector3d& at = k.position[wheel(l)];
    return model.terrain().sample(at.x(), at.y());
  });
  const Vec3 n = Vec3::gather([&](int l) { return ground[l].normal; });  // up: the normal
  const Vec3 p = Vec3::gather([&](int l) { return k.position[wheel(l)]; });
  const Vec3 v = Vec3::gather([&](int l) { return k.velocity[wheel(l)]; });
  const Vec3 heading = lanes::times(k.R, Vec3{cos_d, sin_d, lanes::splat<V>(0.0)});
  const Vec3 LT = lanes::normalized(heading - lanes::dot(heading, n) * n);  // look-to
  const Vec3 LS = lanes::cross(n, LT);                                      // look-side (left)
  // Step 2: deflection along the normal (exact for a plane; MAVS measures it vertically)
  const V delta = per_wheel([&](std::size_t w) { return 0.5 * model.tire(w).diameter; }) -
                  n.z * (p.z - lanes::gather<V>([&](int l) { return ground[l].height; }));
  std::array<SurfaceProperties, kLanes> surface;
  std::array<const TireParams*, kLanes> tire{};
  for (int l = 0; l < kLanes; ++l) {
    WheelContact& c = contact[wheel(l)];
    surface[l] = ground[l].surface;
    surface[l].friction_scale *= in.friction_scale[wheel(l)];
    tire[l] = &model.tire(wheel(l));
    c.surface = surface[l].type;
    c.cos_d = cos_d[l];
    c.sin_d = sin_d[l];
    c.LT = LT.lane(l);
    c.LS = LS.lane(l);
    c.delta = delta[l];
  }
  // Steps 2–4: normal force, slip, VTI forces (models/tire/tire.hpp)
  const std::array<TireOutputs, kLanes> t =
      evaluate_tires<V, Math>(tire, surface,
                              {.v_par = lanes::dot(v, LT),
                               .v_perp = lanes::dot(v, LS),
                               .delta = delta,
                               .delta_rate = -lanes::dot(v, n),
                               .omega = per_wheel([&](std::size_t w) { return x[L::spin(w)]; }),
                               .u_x = per_wheel([&](std::size_t w) { return x[L::patch_x(w)]; }),
                               .u_y = per_wheel([&](std::size_t w) { return x[L::patch_y(w)]; })});
  // Step 6: F = F∥·LT + F⊥·LS + N·LU on the hub, LU the terrain normal
  const auto output = [&](double TireOutputs::*field) {
    return lanes::gather<V>([&](int l) { return t[l].*field; });
  };
  const Vec3 hub =
      output(&TireOutputs::Fx) * LT + output(&TireOutputs::Fy) * LS + output(&TireOutputs::N) * n;
  for (int l = 0; l < kLanes; ++l) {
    contact[wheel(l)].tire = t[l];
    loads.hub_force_world[wheel(l)] = hub.lane(l);
  }
}

// The AVX2 builds: each wrapper is built for AVX2 with everything it calls inlined into it
// (flatten), so that no function the rest of the binary calls is built for AVX2 and the binary
// runs on any x86-64; called only with `avx2_fma`, where the CPU has AVX2 and FMA. The same
// operations as the pairs (no FMA instructions here: a fused a·b − c·d is not 0 where the
// products are equal, and straight runs would lose their exact zeros), but the transcendentals
// from glibc's 4-lane AVX2 kernels (vmath::Avx2Fma, which glibc runs where the CPU has FMA):
// within their 4 ulp of the pairs, not their bits (docs/performance.md, round 6). Without AVX an
// L4 is two SSE2 registers, which measured slower than pairs: pairs then.
#if defined(__x86_64__) && defined(__GNUC__)
#define HIL_BUILT_FOR_AVX2 gnu::target("avx2"),
#else
#define HIL_BUILT_FOR_AVX2
#endif
[[HIL_BUILT_FOR_AVX2 gnu::flatten]] void contacts_of_four(
    const VehicleModel& model, std::size_t first, const StepInputs& in, const VehicleState& x,
    const ChassisKinematics& k, const std::array<double, kMaxWheels>& tan_delta,
    WheelContacts& contact, ChassisLoads& loads) noexcept {
  contacts_in_lanes<lanes::L4, vmath::Avx2Fma>(model, first, in, x, k, tan_delta, contact, loads);
}
[[HIL_BUILT_FOR_AVX2 gnu::flatten]] ChassisKinematics chassis_kinematics_avx2(
    const Chassis& chassis, const ChassisState& x) noexcept {
  return chassis.kinematics(x);
}
[[HIL_BUILT_FOR_AVX2 gnu::flatten]] ChassisState chassis_derivative_avx2(
    const Chassis& chassis, const ChassisState& x, const ChassisKinematics& k,
    const ChassisLoads& loads) noexcept {
  return chassis.derivative(x, k, loads);
}
#undef HIL_BUILT_FOR_AVX2

}  // namespace

void contact_pass(const VehicleModel& model, bool avx2_fma, const StepInputs& in,
                  const VehicleState& x, const ChassisKinematics& k,
                  const std::array<double, kMaxWheels>& tan_delta, WheelContacts& contact,
                  ChassisLoads& loads) noexcept {
  // A vehicle has axles of two wheels: fours, then a pair where the count is not a multiple
  std::size_t first = 0;
  if (avx2_fma) {
    for (; first + 4 <= model.wheel_count(); first += 4) {
      contacts_of_four(model, first, in, x, k, tan_delta, contact, loads);
    }
  }
  for (; first + 2 <= model.wheel_count(); first += 2) {
    contacts_in_lanes<lanes::L2>(model, first, in, x, k, tan_delta, contact, loads);
  }
}

ChassisKinematics chassis_kinematics(const Chassis& chassis, bool avx2_fma,
                                     const ChassisState& x) noexcept {
  return avx2_fma ? chassis_kinematics_avx2(chassis, x) : chassis.kinematics(x);
}

ChassisState chassis_derivative(const Chassis& chassis, bool avx2_fma, const ChassisState& x,
                                const ChassisKinematics& k, const ChassisLoads& loads) noexcept {
  return avx2_fma ? chassis_derivative_avx2(chassis, x, k, loads) : chassis.derivative(x, k, loads);
}

}  // namespace hil::models
