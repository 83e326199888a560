// The assembled vehicle: statics, parking on a grade,
// coast-down, the kinematic circle, energy conservation, determinism. RAVON- and HMMWV-like
// presets on the analytic terrains, at the executive's period of 250 µs.

#include "models/vehicle/vehicle.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <functional>
#include <limits>
#include <string>

#include "models/terrain/terrain_flat.hpp"
#include "models/terrain/terrain_incline.hpp"
#include "models/vehicle/vehicle_presets.hpp"

namespace hil::models {
namespace {

using L = VehicleLayout;

/// Prints a measured figure (the closing notes quote them) and records it in the XML.
void report(const std::string& what, double value) {
  std::printf("[ measured ] %s = %.6g\n", what.c_str(), value);
  ::testing::Test::RecordProperty(what, std::to_string(value));
}

/// The preset with its drive replaced by torque inputs: the physics tests drive
/// the wheels with torques directly (the drives are tested below and in their own files).
VehicleParams torque_driven(VehicleParams p) {
  p.drive.kind = DriveKind::torque;
  return p;
}
VehicleParams ravon() { return torque_driven(ravon_params()); }
VehicleParams hmmwv() { return torque_driven(hmmwv_params()); }

/// Steps `vehicle` for `seconds`, calling `each(vehicle)` after every step.
void run(Vehicle& vehicle, const VehicleInputs& in, double seconds,
         const std::function<void(const Vehicle&)>& each = {}) {
  const auto steps = static_cast<long>(std::lround(seconds / vehicle.params().dt));
  for (long k = 0; k < steps; ++k) {
    vehicle.step(in);
    if (each) each(vehicle);
  }
}

/// Sum of the tire normal forces at the state (not the lagging diagnostics): one derivative.
struct WheelLoads {
  double total = 0.0;
  double front = 0.0;
};
WheelLoads wheel_loads(const Vehicle& v) {
  StageDiagnostics d;
  (void)v.model().derivative(v.model().prepare({}), v.state(), &d);
  WheelLoads w;
  for (std::size_t i = 0; i < v.model().wheel_count(); ++i) {
    w.total += d.wheels[i].tire.N;
    if (i < 2) w.front += d.wheels[i].tire.N;
  }
  return w;
}

TEST(Vehicle, SettlesOnFlatGroundWithTheWheelLoadsOfItsCgPosition) {
  const FlatTerrain flat({});
  for (const VehicleParams& p : {ravon(), hmmwv()}) {
    Vehicle vehicle(p, flat);
    vehicle.reset(0.0, 0.0, 0.3, 0.0);
    // Dropped 2 cm to give it something to settle from
    VehicleState x = vehicle.state();
    x[RigidBodyLayout::kPosition + 2] += 0.02;
    vehicle.set_state(x);
    run(vehicle, {}, 5.0);

    const WheelLoads loads = wheel_loads(vehicle);
    const double m = vehicle.model().total_mass();
    report("static total load error", loads.total / (m * p.gravity) - 1.0);
    EXPECT_NEAR(loads.total / (m * p.gravity), 1.0, 1e-3);  // within 0.1 %
    // Sprung weight split by the CG position (lever rule), plus the unsprung masses
    const double L_wb = p.axles[0].x - p.axles[1].x;
    const double front = p.sprung.mass * p.gravity * (-p.axles[1].x) / L_wb +
                         2.0 * p.axles[0].unsprung_mass * p.gravity;
    report("static front share error", loads.front / front - 1.0);
    EXPECT_NEAR(loads.front / front, 1.0, 5e-3);  // within 0.5 %
    // At rest where it settled: no creep
    EXPECT_LT(vehicle.outputs().velocity_world.norm(), 1e-4);
  }
}

TEST(Vehicle, ParkedOnA15PercentGradeDriftsLessThanAMillimetreInAMinute) {
  const InclineTerrain hill({.grade_percent = 15.0, .rise_direction = 0.0});
  for (const VehicleParams& p : {ravon(), hmmwv()}) {
    for (const double yaw : {0.0, 3.14159265358979}) {  // facing up and facing down the hill
      Vehicle vehicle(p, hill);
      vehicle.reset(0.0, 0.0, yaw, 0.0);
      VehicleInputs parked;
      parked.park_brake = 1.0;
      run(vehicle, parked, 5.0);  // settles on springs, tires and brakes
      const Eigen::Vector3d settled = vehicle.outputs().position;
      run(vehicle, parked, 60.0);
      const Eigen::Vector3d drift = vehicle.outputs().position - settled;
      report("parked drift over 60 s [m]", drift.norm());
      EXPECT_LT(drift.norm(), 1e-3) << "yaw " << yaw;  // < 1 mm over 60 s
      EXPECT_LT(std::abs(vehicle.outputs().wheels[0].speed), 1e-6);
    }
  }
}

TEST(Vehicle, WithoutTheParkingBrakeItRollsDownTheGrade) {
  const InclineTerrain hill({.grade_percent = 15.0, .rise_direction = 0.0});
  Vehicle vehicle(hmmwv(), hill);
  run(vehicle, {}, 3.0);
  // g·sin θ less rolling resistance, about 1.3 m/s² for 3 s
  EXPECT_LT(vehicle.outputs().velocity_world.x(), -2.5);
}

TEST(Vehicle, RoadInclinationFromChannelsActsLikeTheInclinedTerrain) {
  // RAVON §3.2: drive on a flat road and feel the grade through eq. (1)'s force G'
  const InclineTerrain hill({.grade_percent = 15.0, .rise_direction = 0.0});
  const FlatTerrain flat({});
  VehicleParams p = hmmwv();
  Vehicle on_hill(p, hill);
  p.road_normal_from_input = true;
  Vehicle on_flat(p, flat);
  VehicleInputs in;
  in.road_normal = Eigen::Vector3d(-0.15, 0.0, 1.0);  // rising ahead; normalised by the model
  run(on_hill, in, 3.0);
  run(on_flat, in, 3.0);
  const double v_hill = on_hill.outputs().velocity_body.x();
  const double v_flat = on_flat.outputs().velocity_body.x();
  report("road-normal input vs incline, speed after 3 s", v_flat / v_hill - 1.0);
  EXPECT_LT(v_hill, -2.5);
  EXPECT_NEAR(v_flat / v_hill, 1.0, 0.01);
}

TEST(Vehicle, CoastDownFollowsTheAnalyticSolutionWithDragAndRollingResistance) {
  const FlatTerrain flat({});
  VehicleParams p = hmmwv();
  for (std::size_t a = 0; a < 2; ++a) p.axles[a].tire.bearing_damping = 0.0;
  p.aero.x_cp = 0.0;
  Vehicle vehicle(p, flat);
  const double v0 = 15.0;
  vehicle.reset(0.0, 0.0, 0.0, v0);

  // m_eff·dv/dt = −C_rr·m·g − c·v², c = ½ρ·C_d·A, m_eff = m + Σ I/r² (the wheels spin down
  // too): v(t) = √(F/c)·tan(atan(v0·√(c/F)) − t·√(F·c)/m_eff)
  const double m = vehicle.model().total_mass();
  const double r =
      vehicle.outputs().wheels[0].speed > 0.0 ? v0 / vehicle.outputs().wheels[0].speed : 0.47;
  const double m_eff = m + 4.0 * p.axles[0].tire.spin_inertia / (r * r);
  const double F = p.axles[0].tire.rolling_resistance * m * p.gravity;
  const double c = 0.5 * p.aero.air_density * p.aero.drag_coefficient * p.aero.frontal_area;
  const auto analytic = [&](double t) {
    return std::sqrt(F / c) *
           std::tan(std::atan(v0 * std::sqrt(c / F)) - t * std::sqrt(F * c) / m_eff);
  };
  double worst = 0.0;
  for (int second = 1; second <= 40; ++second) {
    run(vehicle, {}, 1.0);
    const double v = vehicle.outputs().velocity_body.x();
    worst = std::max(worst, std::abs(v / analytic(second) - 1.0));
  }
  report("coast-down worst relative error", worst);
  EXPECT_LT(worst, 0.02);                                    // within 2 %
  EXPECT_LT(vehicle.outputs().velocity_body.x(), 0.5 * v0);  // it really slowed down
}

/// Holds the body speed at v_ref with a proportional drive torque on every wheel.
VehicleInputs cruise(const Vehicle& v, double v_ref, VehicleInputs in) {
  const double torque =
      400.0 * v.model().total_mass() / 1000.0 * (v_ref - v.outputs().velocity_body.x());
  for (std::size_t i = 0; i < v.model().wheel_count(); ++i) in.drive_torque[i] = torque;
  return in;
}

TEST(Vehicle, LowSpeedCircleYawRateIsTheKinematicValueOfTheSteeringGeometry) {
  const FlatTerrain flat({});
  {  // HMMWV, front steering: ψ̇ = v·tan d / L
    const VehicleParams p = hmmwv();
    Vehicle vehicle(p, flat);
    vehicle.reset(0.0, 0.0, 0.0, 2.0);
    VehicleInputs in;
    in.steering_command[0] = 0.2;
    for (int k = 0; k < 8 * 4000; ++k) vehicle.step(cruise(vehicle, 2.0, in));
    const double d = vehicle.outputs().steering_angle[0];
    EXPECT_NEAR(d, 0.2, 1e-6);
    const double L_wb = p.axles[0].x - p.axles[1].x;
    const double v = vehicle.outputs().velocity_body.x();
    EXPECT_NEAR(v, 2.0, 0.1);  // a proportional cruise control: a little below the set speed
    const double ratio = vehicle.outputs().angular_velocity.z() / (v * std::tan(d) / L_wb);
    report("HMMWV circle yaw rate / kinematic", ratio);
    EXPECT_NEAR(ratio, 1.0, 0.02);
  }
  {  // RAVON, both axles steered opposite: ψ̇ = v·tan d / b with b = L/2 (RAVON eq. (2))
    const VehicleParams p = ravon();
    Vehicle vehicle(p, flat);
    vehicle.reset(0.0, 0.0, 0.0, 2.0);
    VehicleInputs in;
    in.steering_command[0] = 0.2;
    in.steering_command[1] = -0.2;
    for (int k = 0; k < 8 * 4000; ++k) vehicle.step(cruise(vehicle, 2.0, in));
    const double v = vehicle.outputs().velocity_body.x();
    const double ratio = vehicle.outputs().angular_velocity.z() / (v * std::tan(0.2) / 0.603);
    report("RAVON circle yaw rate / kinematic", ratio);
    EXPECT_NEAR(ratio, 1.0, 0.02);
  }
}

TEST(Vehicle, FourWheelSteeringAxesMeetInOneTurningCentre) {
  const FlatTerrain flat({});
  Vehicle vehicle(ravon(), flat);
  VehicleState x = vehicle.state();
  x[L::steer(0)] = 0.25;
  x[L::steer(1)] = -0.25;
  const std::array<double, kMaxWheels> t = vehicle.model().steer_tangents(x);
  // A wheel at (x_i, y_i) pointing δ_i has its axle through (0, y_i + x_i / tan δ_i)
  double centre[4];
  for (std::size_t i = 0; i < 4; ++i) {
    const AxleParams& axle = vehicle.params().axles[i / 2];
    const double y = (i % 2 == 0 ? 0.5 : -0.5) * axle.track;
    centre[i] = y + axle.x / t[i];
  }
  for (std::size_t i = 1; i < 4; ++i) EXPECT_NEAR(centre[i], centre[0], 1e-12);
  EXPECT_NEAR(centre[0], 0.603 / std::tan(0.25), 1e-12);  // cot δ_centre = R / b
  EXPECT_GT(t[0], t[1]);                                  // front inner (left) turns more
  EXPECT_LT(t[2], t[3]);                                  // rear inner (left) too, the other way
}

TEST(Vehicle, ConservesEnergyWithoutDampingOrFriction) {
  const FlatTerrain flat({});
  VehicleParams p = hmmwv();
  for (std::size_t a = 0; a < 2; ++a) {
    p.axles[a].damping = 0.0;
    p.axles[a].tire.vertical_damping = 0.0;
    p.axles[a].tire.bearing_damping = 0.0;
  }
  p.aero.drag_coefficient = 0.0;
  p.aero.side_force_coefficient = 0.0;
  Vehicle vehicle(p, flat);
  vehicle.reset(0.0, 0.0, 0.0, 5.0);
  const double e_rest = vehicle.mechanical_energy();
  VehicleState x = vehicle.state();
  x[RigidBodyLayout::kPosition + 2] += 0.03;  // dropped 3 cm, rolling and pitching
  x[RigidBodyLayout::kAngularVelocity] = 0.3;
  x[RigidBodyLayout::kAngularVelocity + 1] = -0.2;
  vehicle.set_state(x);
  const double e0 = vehicle.mechanical_energy();
  VehicleInputs frictionless;
  frictionless.friction_scale.fill(0.0);

  double worst = 0.0;
  run(vehicle, frictionless, 10.0,
      [&](const Vehicle& v) { worst = std::max(worst, std::abs(v.mechanical_energy() - e0)); });
  // drift < 0.1 % of the energy in motion (forward, heave, roll, pitch)
  const double relative = worst / (e0 - e_rest + 0.5 * vehicle.model().total_mass() * 25.0);
  report("energy drift over 10 s, relative", relative);
  EXPECT_LT(relative, 1e-3);
  EXPECT_GT(std::abs(vehicle.outputs().angular_velocity.x()), 1e-3);  // still rocking
}

TEST(Vehicle, SameInputsGiveTheSameBitsAndTheSeedChangesOnlyTheNoise) {
  const FlatTerrain flat({});
  VehicleParams p = ravon();
  p.sensors.imu.accel_noise = 0.05;
  p.sensors.gnss.horizontal_noise = 0.5;
  const auto run_hash = [&](std::uint64_t seed, double* imu_x) {
    p.seed = seed;
    Vehicle vehicle(p, flat);
    VehicleInputs in;
    in.steering_command = {0.1, -0.1};
    in.drive_torque = {30.0, 30.0, 30.0, 30.0};
    std::uint64_t h = 0xCBF29CE484222325ULL;
    const auto mix = [&h](double value) {
      std::uint64_t bits = 0;
      std::memcpy(&bits, &value, sizeof bits);
      h = (h ^ bits) * 0x100000001B3ULL;
    };
    for (int k = 0; k < 20'000; ++k) {
      vehicle.step(in);
      const VehicleOutputs& o = vehicle.outputs();
      mix(o.position.x());
      mix(o.yaw);
      mix(o.wheels[2].speed);
      mix(o.wheels[1].lateral_force);
      mix(o.gnss.position.latitude_deg);
    }
    *imu_x = vehicle.outputs().imu.specific_force.x();
    return std::pair{h, vehicle.outputs().position};
  };
  double imu_a = 0, imu_b = 0, imu_c = 0;
  const auto a = run_hash(7, &imu_a);
  const auto b = run_hash(7, &imu_b);
  const auto c = run_hash(8, &imu_c);
  EXPECT_EQ(a.first, b.first);
  EXPECT_EQ(imu_a, imu_b);
  EXPECT_NE(a.first, c.first);  // other noise ...
  EXPECT_NE(imu_a, imu_c);
  EXPECT_EQ(a.second, c.second);  // ... but the same physics
}

TEST(Vehicle, NonFiniteInputsAreCountedAndNeverIntegrated) {
  const FlatTerrain flat({});
  Vehicle vehicle(ravon(), flat);
  VehicleInputs bad;
  bad.drive_torque[0] = std::nan("");
  bad.steering_command[0] = std::numeric_limits<double>::infinity();
  bad.brake = std::nan("");
  bad.wind_speed = std::nan("");
  bad.friction_scale[3] = -std::numeric_limits<double>::infinity();
  run(vehicle, bad, 1.0);
  EXPECT_TRUE(vehicle.state().allFinite());
  EXPECT_EQ(vehicle.outputs().rejected_inputs, 5 * 4000);  // five bad values, every step
  EXPECT_LT(vehicle.outputs().velocity_world.norm(), 1e-3);
}

TEST(Vehicle, RejectsParametersOutOfRangeNamingTheField) {
  const FlatTerrain flat({});
  VehicleParams p = ravon();
  p.axles[1].tire.diameter = -1.0;
  try {
    Vehicle v(p, flat);
    FAIL() << "accepted a negative tire diameter";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), "vehicle parameter axles[1].tire.diameter: must be > 0 (got -1)");
  }
  p.sprung.mass = 0.0;
  const std::vector<ParamProblem> all = check(p);  // every problem, in field order
  ASSERT_EQ(all.size(), 2U);
  EXPECT_EQ(all[0].field, "sprung.mass");
  EXPECT_EQ(all[1].field, "axles[1].tire.diameter");
  p = ravon();
  p.axles[0].x = -2.0;
  EXPECT_THROW(Vehicle(p, flat), std::invalid_argument);  // front axle behind the rear
}

}  // namespace
}  // namespace hil::models
