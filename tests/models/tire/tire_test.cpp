// One tire, Steps 2–5 of mavs-vti-model.md with rulings 1, 2, 8, 9: slip, slip angle,
// normal force, the steady state of evaluate_tire(), wheel spin.

#include "models/tire/tire.hpp"

#include <gtest/gtest.h>

#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <numbers>
#include <utility>

#include "models/tire/tire_lanes.hpp"
#include "models/tire/vti.hpp"

namespace hil::models {
namespace {

const TireParams kTire;

TEST(TireSlip, DrivingBrakingReverseAndStandstillFollowRuling2) {
  EXPECT_DOUBLE_EQ(longitudinal_slip(10.0, 11.0), 1.0 / 11.0);    // driving: (rω − v)/rω
  EXPECT_DOUBLE_EQ(longitudinal_slip(10.0, 9.0), -0.1);           // braking: (rω − v)/v
  EXPECT_DOUBLE_EQ(longitudinal_slip(-10.0, -11.0), 1.0 / 11.0);  // driving in reverse
  EXPECT_DOUBLE_EQ(longitudinal_slip(-10.0, -9.0), -0.1);         // braking in reverse
  EXPECT_EQ(longitudinal_slip(0.0, 0.0), 0.0);                    // at rest
  EXPECT_EQ(longitudinal_slip(0.0, 2.0), 1.0);                    // spinning at standstill
  EXPECT_EQ(longitudinal_slip(0.0, -2.0), 1.0);                   // ... backwards
  EXPECT_EQ(longitudinal_slip(5.0, 0.0), -1.0);                   // locked, sliding
  EXPECT_EQ(longitudinal_slip(5.0, -5.0), -1.0);                  // spinning against travel
  EXPECT_EQ(longitudinal_slip(7.0, 7.0), 0.0);                    // free rolling
}

TEST(TireSlip, EvaluateTireReportsTheSlipOfRuling2) {
  for (const double v : {-12.0, -0.3, 0.0, 0.2, 9.0}) {
    for (const double w : {-40.0, -1.0, 0.0, 0.5, 25.0}) {
      const TireOutputs out = evaluate_tire(kTire, {.v_par = v, .delta = 0.01, .omega = w}, {});
      EXPECT_DOUBLE_EQ(out.s, longitudinal_slip(v, out.r_eff * w)) << "v=" << v << " w=" << w;
    }
  }
}

TEST(TireSlip, SlipAngleIsInTheSteeredFrameWithoutSubtractingTheSteeringAngle) {
  EXPECT_DOUBLE_EQ(slip_angle(10.0, 1.0), std::atan(0.1));
  EXPECT_DOUBLE_EQ(slip_angle(-10.0, 1.0), std::atan(0.1));  // |v∥|: same sign in reverse
  EXPECT_DOUBLE_EQ(slip_angle(0.0, 1.0), std::numbers::pi / 2);
  EXPECT_EQ(slip_angle(0.0, 0.0), 0.0);
}

TEST(TireNormalForce, SpringDamperThatNeverPulls) {
  EXPECT_DOUBLE_EQ(normal_force(kTire, 0.01, 0.0), 4000.0);          // k·δ
  EXPECT_DOUBLE_EQ(normal_force(kTire, 0.01, 0.1), 4000.0 + 400.0);  // compressing: + c·δ̇
  EXPECT_DOUBLE_EQ(normal_force(kTire, 0.01, -2.0), 0.0);            // rebounding fast: not < 0
  EXPECT_EQ(normal_force(kTire, 0.0, 1.0), 0.0);                     // no contact
  EXPECT_EQ(normal_force(kTire, -0.05, 1.0), 0.0);
  EXPECT_DOUBLE_EQ(effective_radius(kTire, 0.02), 0.47 - 0.02);
  EXPECT_DOUBLE_EQ(effective_radius(kTire, -0.1), 0.47);
}

TEST(TireWheelSpin, TorqueBalanceOfRuling8) {
  // I·dω/dt = Q − r_eff·Fx − β·ω: (500 − 0.46·800 − 0.1·20)/3.
  EXPECT_DOUBLE_EQ(wheel_spin_acceleration(kTire, 500.0, 0.46, 800.0, 20.0),
                   (500.0 - 0.46 * 800.0 - 0.1 * 20.0) / 3.0);
}

/// Holds the velocities fixed and integrates the patch state to its steady state.
TireOutputs settle(const TireInputs& in) {
  TirePatchState patch;
  TireOutputs out;
  for (int i = 0; i < 200000; ++i) {
    out = evaluate_tire(kTire, in, patch);
    patch.u_x += 1e-5 * out.patch_rate.u_x;
    patch.u_y += 1e-5 * out.patch_rate.u_y;
  }
  return out;
}

TEST(TireSteadyState, ForcesSettleOnThePureSlipCurvesAtSpeed) {
  const double delta = 0.01;
  for (const Surface s : {Surface::dry, Surface::snow, Surface::sand, Surface::clay}) {
    const SurfaceProperties surface{.type = s, .cone_index_pa = 600e3};
    const double r = effective_radius(kTire, delta);
    for (const double slip : {-0.3, -0.05, 0.0, 0.08, 0.4}) {
      const double v = 15.0;
      const double omega = slip >= 0.0 ? v / ((1.0 - slip) * r) : v * (1.0 + slip) / r;
      const TireOutputs out =
          settle({.v_par = v, .delta = delta, .omega = omega, .surface = surface});
      const VtiCurve c = make_vti_curve(kTire, surface, out.N, delta);
      EXPECT_NEAR(out.s, slip, 1e-12);
      EXPECT_NEAR(out.Fx, out.N * longitudinal_coefficient(c, slip), 1e-6 * out.N)
          << surface_name(s) << " s=" << slip;
    }
    const TireOutputs side = settle(
        {.v_par = 15.0, .v_perp = -1.5, .delta = delta, .omega = 15.0 / r, .surface = surface});
    const VtiCurve c = make_vti_curve(kTire, surface, side.N, delta);
    EXPECT_NEAR(side.Fy, side.N * lateral_coefficient(c, std::atan(-0.1)), 1e-6 * side.N);
    EXPECT_GT(side.Fy, 0.0);  // sliding right: pushed left
  }
}

TEST(TireSteadyState, ReverseIsTheMirrorImageOfForward) {
  const SurfaceProperties sand{.type = Surface::sand, .cone_index_pa = 600e3};
  const double r = effective_radius(kTire, 0.01);
  const TireOutputs fwd = settle({.v_par = 5.0, .delta = 0.01, .omega = 5.5 / r, .surface = sand});
  const TireOutputs rev =
      settle({.v_par = -5.0, .delta = 0.01, .omega = -5.5 / r, .surface = sand});
  EXPECT_DOUBLE_EQ(rev.s, fwd.s);
  EXPECT_NEAR(rev.Fx, -fwd.Fx, 1e-9 * fwd.N);
  // Free rolling on sand: only the motion resistance, against the travel both ways.
  const TireOutputs coast =
      settle({.v_par = -5.0, .delta = 0.01, .omega = -5.0 / r, .surface = sand});
  EXPECT_GT(coast.Fx, 0.0);
}

/// A towed wheel (no drive torque, no bearing friction) at constant travel speed: spin and
/// patch integrated together to their steady state.
TireOutputs towed(TireParams tire, const SurfaceProperties& surface, double v, double delta) {
  tire.bearing_damping = 0.0;
  TireInputs in{
      .v_par = v, .delta = delta, .omega = v / effective_radius(tire, delta), .surface = surface};
  TirePatchState patch;
  TireOutputs out;
  for (int i = 0; i < 400000; ++i) {  // 4 s at 10 µs
    out = evaluate_tire(tire, in, patch);
    in.omega += 1e-5 * wheel_spin_acceleration(tire, 0.0, out.r_eff, out.Fx_traction, in.omega);
    patch.u_x += 1e-5 * out.patch_rate.u_x;
  }
  return out;
}

TEST(TireResistance, ATowedWheelIsHeldBackByTheMotionOrRollingResistanceOnly) {
  // The resistance acts at the hub, not through the spin: a free wheel rolls at zero slip
  // and the net force is exactly −R·N (on sand) or −C_rr·N (on pavement).
  const double delta = 0.01;
  const SurfaceProperties sand{.type = Surface::sand, .cone_index_pa = 600e3};
  const TireOutputs s = towed(kTire, sand, 5.0, delta);
  const VtiCurve c = make_vti_curve(kTire, sand, s.N, delta);
  EXPECT_NEAR(s.s, 0.0, 1e-6);
  EXPECT_NEAR(s.Fx, -motion_resistance(c) * s.N, 1e-4 * s.N);
  EXPECT_NEAR(s.Fx_traction, 0.0, 1e-4 * s.N);

  TireParams rolling = kTire;
  rolling.rolling_resistance = 0.015;
  const TireOutputs d = towed(rolling, {.type = Surface::dry}, 5.0, delta);
  EXPECT_NEAR(d.Fx, -0.015 * d.N, 1e-5 * d.N);
  EXPECT_NEAR(d.s, 0.0, 1e-6);
  // Parked: no direction, no resistance.
  const TireOutputs parked = evaluate_tire(rolling, {.delta = delta}, {});
  EXPECT_EQ(parked.Fx, 0.0);
}

TEST(TireContact, NoContactMeansNoForceButTheWheelStillSpinsDown) {
  const TireOutputs out =
      evaluate_tire(kTire, {.v_par = 10.0, .delta = -0.01, .omega = 30.0}, {.u_x = 0.003});
  EXPECT_EQ(out.N, 0.0);
  EXPECT_EQ(out.Fx, 0.0);
  EXPECT_EQ(out.Fy, 0.0);
  EXPECT_LT(wheel_spin_acceleration(kTire, 0.0, out.r_eff, out.Fx, 30.0), 0.0);  // bearing β
  EXPECT_TRUE(std::isfinite(out.patch_rate.u_x));
}

TEST(TireContact, EveryInputCornerGivesFiniteOutputs) {
  for (const Surface s : {Surface::dry, Surface::ice, Surface::sand, Surface::clay}) {
    for (const double v : {-30.0, -1e-9, 0.0, 1e-9, 30.0}) {
      for (const double w : {-100.0, 0.0, 1e-12, 100.0}) {
        for (const double delta : {-0.1, 0.0, 1e-9, 0.05, 0.5}) {
          const TireOutputs out = evaluate_tire(kTire,
                                                {.v_par = v,
                                                 .v_perp = v / 3,
                                                 .delta = delta,
                                                 .omega = w,
                                                 .surface = {.type = s, .cone_index_pa = 400e3}},
                                                {.u_x = 0.002, .u_y = -0.001});
          ASSERT_TRUE(std::isfinite(out.Fx) && std::isfinite(out.Fy) &&
                      std::isfinite(out.patch_rate.u_x) && std::isfinite(out.patch_rate.u_y))
              << surface_name(s) << " v=" << v << " w=" << w << " delta=" << delta;
        }
      }
    }
  }
}

}  // namespace
}  // namespace hil::models

namespace hil::models {
namespace {

/// The same bits, field by field.
void expect_identical(const TireOutputs& a, const TireOutputs& b) {
  for (const auto& [x, y] : {std::pair{a.Fx, b.Fx},
                             {a.Fx_traction, b.Fx_traction},
                             {a.Fy, b.Fy},
                             {a.N, b.N},
                             {a.s, b.s},
                             {a.alpha, b.alpha},
                             {a.r_eff, b.r_eff},
                             {a.patch_rate.u_x, b.patch_rate.u_x},
                             {a.patch_rate.u_y, b.patch_rate.u_y}}) {
    EXPECT_EQ(std::bit_cast<std::uint64_t>(x), std::bit_cast<std::uint64_t>(y)) << x << " " << y;
  }
}

// The vehicle evaluates its tires by pairs (one vector call for each transcendental of both);
// a pair gives each tire exactly what evaluate_tire() gives it, whatever the other tire is on.
TEST(TirePair, EachTireOfAPairIsTheSameAsAlone) {
  const TireInputs dry{.v_par = 8.0, .v_perp = -0.6, .delta = 0.012, .omega = 27.0};
  const TireInputs wet_braking{.v_par = 8.0,
                               .v_perp = 0.3,
                               .delta = 0.010,
                               .omega = 20.0,
                               .surface = {.type = Surface::wet}};
  const TireInputs clay{.v_par = 2.0,
                        .v_perp = 0.1,
                        .delta = 0.02,
                        .omega = 9.0,
                        .surface = {.type = Surface::clay, .cone_index_pa = 600e3}};
  const TireInputs standing{.v_par = 0.0, .v_perp = 0.2, .delta = 0.01, .omega = 1.0};
  const TirePatchState patch{.u_x = 0.001, .u_y = -0.002};
  for (const TireInputs& a : {dry, wet_braking, clay, standing}) {
    for (const TireInputs& b : {dry, wet_braking, clay, standing}) {
      const TireOutputsPair pair = evaluate_tires(kTire, a, patch, kTire, b, {});
      expect_identical(pair.first, evaluate_tire(kTire, a, patch));
      expect_identical(pair.second, evaluate_tire(kTire, b, {}));
    }
  }
}

// Four tires in lanes (what the vehicle computes for two axles at once): each the same as alone,
// whatever the others are on (all soil, none, some).
TEST(TirePair, EachOfFourTiresInLanesIsTheSameAsAlone) {
  const std::array<TireInputs, 4> kinds{
      TireInputs{.v_par = 8.0, .v_perp = -0.6, .delta = 0.012, .omega = 27.0},
      TireInputs{.v_par = -3.0,
                 .v_perp = 0.3,
                 .delta = 0.010,
                 .omega = -20.0,
                 .surface = {.type = Surface::wet}},
      TireInputs{.v_par = 2.0,
                 .v_perp = 0.1,
                 .delta = 0.02,
                 .omega = 9.0,
                 .surface = {.type = Surface::sand, .cone_index_pa = 600e3}},
      TireInputs{.v_par = 0.0, .v_perp = 0.2, .delta = 0.01, .omega = 1.0}};
  TireParams other = kTire;
  other.diameter *= 1.1;
  other.rolling_resistance *= 2.0;
  for (int combination = 0; combination < 256; ++combination) {
    std::array<TireInputs, 4> in;
    std::array<TirePatchState, 4> patch;
    std::array<const TireParams*, 4> params{};
    std::array<SurfaceProperties, 4> surfaces;
    for (int l = 0; l < 4; ++l) {
      in[l] = kinds[(combination >> (2 * l)) & 3];
      patch[l] = {.u_x = 0.001 * l, .u_y = -0.002 * (3 - l)};
      params[l] = l == 2 ? &other : &kTire;
      surfaces[l] = in[l].surface;
    }
    const auto lane = [&](auto&& value) { return lanes::gather<lanes::L4>(value); };
    const std::array<TireOutputs, 4> four =
        evaluate_tires<lanes::L4>(params, surfaces,
                                  {.v_par = lane([&](int l) { return in[l].v_par; }),
                                   .v_perp = lane([&](int l) { return in[l].v_perp; }),
                                   .delta = lane([&](int l) { return in[l].delta; }),
                                   .delta_rate = lane([&](int l) { return in[l].delta_rate; }),
                                   .omega = lane([&](int l) { return in[l].omega; }),
                                   .u_x = lane([&](int l) { return patch[l].u_x; }),
                                   .u_y = lane([&](int l) { return patch[l].u_y; })});
    for (int l = 0; l < 4; ++l)
      expect_identical(four[l], evaluate_tire(*params[l], in[l], patch[l]));
  }
}

}  // namespace
}  // namespace hil::models
