// Wong's flexible tire on soft soil (models/tire/bekker_flexible.hpp) against its limits and
// closed forms: the rigid wheel at a high inflation pressure (exactly), the flat's sinkage
// (p_g/k)^(1/n) whatever the load, its vertical force p_g·b·l, Wong's compaction resistance
// b·p_g^((n+1)/n)/((n+1)·k^(1/n)), and for n = 1 the arcs' integrals — within 1e-9 relative.
// docs/models.md "Soft soil (Bekker–Wong)", "The flexible tire".

#include "models/tire/bekker_flexible.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

#include "models/terrain/bekker_soil.hpp"
#include "models/tire/bekker_contact.hpp"
#include "models/tire/bekker_wong.hpp"

namespace hil::models {
namespace {

constexpr double kRel = 1e-9;
constexpr double kR = 0.47;   // a HMMWV tire: radius [m]
constexpr double kB = 0.318;  // width [m]

/// n = 1 and no θ_m shift: the arcs' integrals have closed forms.
BekkerSoil linear_soil(double c, double phi, double K) {
  return BekkerSoil{.n = 1.0,
                    .k_c = 2.0e4,
                    .k_phi = 8.0e5,
                    .c = c,
                    .phi = phi,
                    .K = K,
                    .c1 = 0.0,
                    .c2 = 0.0,
                    .c3 = 0.0};
}

void expect_rel(double actual, double expected, double rel = kRel) {
  EXPECT_NEAR(actual, expected, rel * std::abs(expected)) << "expected " << expected;
}

/// The front arc θ_f…θ1 of the undeformed circle, σ = k·r·(cos θ − cos θ1) (n = 1): its
/// integrals ∫σ cos θ, ∫σ sin θ, ∫σ dθ in closed form.
struct LinearArc {
  double t1, tf, cos1, k;
  [[nodiscard]] double sigma_cos() const {
    const auto F = [&](double t) { return t / 2.0 + std::sin(2.0 * t) / 4.0 - cos1 * std::sin(t); };
    return k * kR * (F(t1) - F(tf));
  }
  [[nodiscard]] double sigma_sin() const {
    return k * kR * (std::cos(tf) - cos1) * (std::cos(tf) - cos1) / 2.0;
  }
  [[nodiscard]] double sigma() const {
    const auto F = [&](double t) { return std::sin(t) - t * cos1; };
    return k * kR * (F(t1) - F(tf));
  }
};

LinearArc arc_of(double z, double z0, double k) {
  const double cos1 = 1.0 - z / kR;
  return {.t1 = std::acos(cos1), .tf = std::acos(1.0 - (z - z0) / kR), .cos1 = cos1, .k = k};
}

TEST(BekkerFlexible, AVeryHighInflationPressureIsTheRigidWheelExactly) {
  const FlexibleTire stiff{.r = kR, .b = kB, .p_g = 1e12};
  const FlexibleTire unset{.r = kR, .b = kB, .p_g = 0.0};
  for (const char* name : {"dry_sand", "sandy_loam", "clayey_soil", "lete_sand", "heavy_clay"}) {
    const BekkerSoil s = *find_bekker_soil(name);
    for (const double slip : {-0.3, 0.0, 0.2, 0.6}) {
      for (const FlexibleTire& tire : {stiff, unset}) {
        const WheelSoilForces rigid = rigid_wheel_forces(s, {.r = kR, .b = kB}, 0.05, slip);
        const FlexibleWheelForces f = flexible_wheel_forces(s, tire, 0.05, slip);
        EXPECT_FALSE(f.flexible) << name;
        expect_rel(f.forces.W, rigid.W);
        expect_rel(f.forces.DP, rigid.DP);
        expect_rel(f.forces.torque, rigid.torque);
        expect_rel(f.forces.resistance, rigid.resistance);
        EXPECT_EQ(f.sinkage, 0.05);
        EXPECT_EQ(f.deflection, 0.0);
        EXPECT_EQ(f.flat_length, 0.0);
      }
      // … and the load solve gives the rigid wheel's sinkage
      expect_rel(flexible_wheel_penetration(s, stiff, 6400.0, slip),
                 rigid_wheel_sinkage(s, {.r = kR, .b = kB}, 6400.0, slip));
    }
  }
}

TEST(BekkerFlexible, TheTireFlattensWhenTheRigidWheelsGroundPressureExceedsItsOwn) {
  // Wong: rigid while p_i + p_c ≥ k·zⁿ under the rigid wheel's lowest point; else the flat
  // sinks z0 = (p_g/k)^(1/n)
  const BekkerSoil s = *find_bekker_soil("sandy_loam");
  const double z = 0.06;
  const double p = rigid_wheel_ground_pressure(s, kB, z);
  expect_rel(p, (5.27e3 / kB + 1515.04e3) * std::pow(z, 0.7));  // Wong's sandy loam
  EXPECT_FALSE(flexible_wheel_forces(s, {.r = kR, .b = kB, .p_g = p * 1.0001}, z, 0.1).flexible);
  const FlexibleWheelForces f =
      flexible_wheel_forces(s, {.r = kR, .b = kB, .p_g = 0.5 * p}, z, 0.1);
  EXPECT_TRUE(f.flexible);
  expect_rel(f.sinkage, z * std::pow(0.5, 1.0 / 0.7));
  expect_rel(f.deflection, z - f.sinkage);
}

TEST(BekkerFlexible, TheSwitchIsContinuousWithoutTheStressPeaksShiftAndJumpsUpWithIt) {
  // At z* (k·z*ⁿ = p_g) the flat has length 0. With θ_m = 0 (c1 = c2 = 0) both modes are the
  // same stresses there; with Wong–Reece's θ_m = (c1 + c2·s)·θ1 the rigid wheel's peak lies
  // ahead and below k·zⁿ, so W jumps up where the tire flattens (docs/models.md) — upward, so
  // W(z) stays increasing and the load solve stays bracketed
  BekkerSoil s = *find_bekker_soil("dry_sand");
  const double p_g = 100.0e3;
  const FlexibleTire tire{.r = kR, .b = kB, .p_g = p_g};
  const double z_switch = plate_sinkage(s, kB, p_g);
  const FlexibleWheelForces below = flexible_wheel_forces(s, tire, z_switch * (1.0 - 1e-9), 0.2);
  const FlexibleWheelForces above = flexible_wheel_forces(s, tire, z_switch * (1.0 + 1e-9), 0.2);
  EXPECT_FALSE(below.flexible);
  EXPECT_TRUE(above.flexible);
  EXPECT_GT(above.forces.W, 1.2 * below.forces.W);
  s.c1 = s.c2 = 0.0;
  // The flat's share p_g·b·l grows as √(z − z*): the gap closes as the step shrinks
  double last_gap = 1.0;
  for (const double eps : {1e-6, 1e-9, 1e-12}) {
    const FlexibleWheelForces b0 = flexible_wheel_forces(s, tire, z_switch * (1.0 - eps), 0.2);
    const FlexibleWheelForces a0 = flexible_wheel_forces(s, tire, z_switch * (1.0 + eps), 0.2);
    ASSERT_TRUE(a0.flexible && !b0.flexible);
    const double gap = std::abs(a0.forces.W / b0.forces.W - 1.0) +
                       std::abs(a0.forces.DP / b0.forces.DP - 1.0) +
                       std::abs(a0.forces.torque / b0.forces.torque - 1.0);
    EXPECT_LT(gap, 0.1 * last_gap) << eps;
    last_gap = gap;
  }
  EXPECT_LT(last_gap, 1e-5);
}

TEST(BekkerFlexible, WithoutShearTheFlatCarriesPgTimesItsAreaAndResistsByCompactionToZ0) {
  const BekkerSoil s = linear_soil(0.0, 0.0, 0.01);
  const double k = 2.0e4 / kB + 8.0e5;
  const double p_g = 60.0e3;
  const double z = 0.10;
  const double z0 = p_g / k;  // n = 1
  const FlexibleWheelForces f = flexible_wheel_forces(s, {.r = kR, .b = kB, .p_g = p_g}, z, 0.2);
  ASSERT_TRUE(f.flexible);
  const LinearArc arc = arc_of(z, z0, k);
  const double l = 2.0 * std::sqrt((z - z0) * (2.0 * kR - (z - z0)));  // chord at depth δ_t
  expect_rel(f.sinkage, z0);
  expect_rel(f.flat_length, l);
  expect_rel(f.forces.W, kR * kB * arc.sigma_cos() + p_g * kB * l);
  // Wong's compaction resistance of the flexible tire, b·k·z0^(n+1)/(n+1)
  expect_rel(f.forces.resistance, kB * k * z0 * z0 / 2.0);
  expect_rel(f.forces.DP, -f.forces.resistance);
  EXPECT_EQ(f.forces.torque, 0.0);
  expect_rel(f.contact_length, kR * std::sin(arc.t1) + l / 2.0);
}

TEST(BekkerFlexible, WithAnExitAngleTheRearArcCarriesWongReecesRearLaw) {
  // c3 > 0: behind the flat, −θ_f − c3·θ1 … −θ_f, σ = k·r·(cos θ* − cos θ1) at the equivalent
  // angle θ* = θ1 − (θ − θ_e)·q, q = (θ1 − θ_f)/(−θ_f − θ_e): with α = θ1 + θ_e·q, β = −q the
  // integrals of cos(α + βθ)·cos θ and ·sin θ are in closed form (product to sum)
  BekkerSoil s = linear_soil(0.0, 0.0, 0.01);
  s.c3 = 0.5;
  const double k = 2.0e4 / kB + 8.0e5;
  const double p_g = 60.0e3;
  const double z = 0.10;
  const double z0 = p_g / k;
  const FlexibleWheelForces f = flexible_wheel_forces(s, {.r = kR, .b = kB, .p_g = p_g}, z, 0.2);
  ASSERT_TRUE(f.flexible);
  const LinearArc arc = arc_of(z, z0, k);
  const double te = -arc.tf - s.c3 * arc.t1;
  const double q = (arc.t1 - arc.tf) / (-arc.tf - te);
  const double alpha = arc.t1 + te * q;
  const double beta = -q;
  const auto cos_cos = [&](double t) {  // ∫cos(α + βθ)·cos θ dθ
    return 0.5 * (std::sin(alpha + (beta + 1.0) * t) / (beta + 1.0) +
                  std::sin(alpha + (beta - 1.0) * t) / (beta - 1.0));
  };
  const auto cos_sin = [&](double t) {  // ∫cos(α + βθ)·sin θ dθ
    return 0.5 * (-std::cos(alpha + (beta + 1.0) * t) / (beta + 1.0) +
                  std::cos(alpha + (beta - 1.0) * t) / (beta - 1.0));
  };
  const double rear_cos =
      k * kR * (cos_cos(-arc.tf) - cos_cos(te) - arc.cos1 * (std::sin(-arc.tf) - std::sin(te)));
  const double rear_sin =
      k * kR * (cos_sin(-arc.tf) - cos_sin(te) + arc.cos1 * (std::cos(-arc.tf) - std::cos(te)));
  const double l = 2.0 * kR * std::sin(arc.tf);
  expect_rel(f.forces.W, kR * kB * (arc.sigma_cos() + rear_cos) + p_g * kB * l);
  expect_rel(f.forces.resistance, kB * k * z0 * z0 / 2.0 + kR * kB * rear_sin);
  EXPECT_LT(rear_sin, 0.0);  // behind bottom dead centre the normal stress pushes forward
  expect_rel(f.contact_length, kR * std::sin(arc.t1) + kR * std::sin(-te));
}

TEST(BekkerFlexible, FullyMobilisedShearOnArcAndFlatMatchesItsClosedForm) {
  // K = 0 at s = 1: τ = c + σ·tan φ on the arc and c + p_g·tan φ on the flat
  const double phi = 25.0 * std::numbers::pi / 180.0;
  const double c = 3.0e3;
  const double tan_phi = std::tan(phi);
  const BekkerSoil s = linear_soil(c, phi, 0.0);
  const double k = 2.0e4 / kB + 8.0e5;
  const double p_g = 50.0e3;
  const double z = 0.09;
  const double z0 = p_g / k;
  const double dt = z - z0;
  const FlexibleWheelForces f = flexible_wheel_forces(s, {.r = kR, .b = kB, .p_g = p_g}, z, 1.0);
  ASSERT_TRUE(f.flexible);
  const LinearArc arc = arc_of(z, z0, k);
  const double l = 2.0 * kR * std::sin(arc.tf);
  const double tau_flat = c + p_g * tan_phi;
  expect_rel(f.forces.thrust,
             kR * kB * (c * (std::sin(arc.t1) - std::sin(arc.tf)) + tan_phi * arc.sigma_cos()) +
                 kB * tau_flat * l);
  expect_rel(f.forces.torque, kR * kR * kB * (c * (arc.t1 - arc.tf) + tan_phi * arc.sigma()) +
                                  (kR - dt) * kB * tau_flat * l);
  expect_rel(
      f.forces.W,
      kR * kB * (arc.sigma_cos() + c * (std::cos(arc.tf) - arc.cos1) + tan_phi * arc.sigma_sin()) +
          p_g * kB * l);
  expect_rel(f.forces.DP, f.forces.thrust - kB * k * z0 * z0 / 2.0);
}

TEST(BekkerFlexible, TheFlatsLengthGrowsWithTheLoadAsWEqualsPgBl) {
  // Under a static load the soil sinks z0 whatever the load; the flat takes what the entry arc
  // does not: p_g·b·l = W − W_arc (no shear, n = 1: W_arc in closed form)
  const BekkerSoil s = linear_soil(0.0, 0.0, 0.01);
  const double k = 2.0e4 / kB + 8.0e5;
  const double p_g = 60.0e3;
  const FlexibleTire tire{.r = kR, .b = kB, .p_g = p_g};
  double last_l = 0.0;
  for (const double W : {4000.0, 8000.0, 16000.0}) {
    const double z = flexible_wheel_penetration(s, tire, W, 0.0);
    const FlexibleWheelForces f = flexible_wheel_forces(s, tire, z, 0.0);
    ASSERT_TRUE(f.flexible) << W;
    expect_rel(f.sinkage, p_g / k);
    expect_rel(f.forces.W, W);
    const LinearArc arc = arc_of(z, f.sinkage, k);
    expect_rel(p_g * kB * f.flat_length, W - kR * kB * arc.sigma_cos());
    EXPECT_GT(f.flat_length, last_l) << W;
    last_l = f.flat_length;
  }
  // Wong's approximation l ≈ W/(p_g·b) (the arcs neglected) is then an upper bound
  EXPECT_LT(last_l, 16000.0 / (p_g * kB));
  EXPECT_GT(last_l, 0.8 * 16000.0 / (p_g * kB));
}

TEST(BekkerFlexible, CompactionResistanceForAnyExponentIsWongsWithinTheQuadratureError) {
  // R_c = b·p_g^((n+1)/n)/((n+1)·k^(1/n)) (Wong, the flexible tire's motion resistance); the
  // fixed 8-point rule meets (θ1 − θ)ⁿ at the entry: n = 1.1 within 1e-4
  const BekkerSoil s = *find_bekker_soil("dry_sand");
  const double k = pressure_sinkage_modulus(s, kB);
  const double p_g = 40.0e3;
  const FlexibleWheelForces f = flexible_wheel_forces(s, {.r = kR, .b = kB, .p_g = p_g}, 0.12, 0.0);
  ASSERT_TRUE(f.flexible);
  const double n = s.n;
  expect_rel(f.forces.resistance,
             kB * std::pow(p_g, (n + 1.0) / n) / ((n + 1.0) * std::pow(k, 1.0 / n)), 1e-4);
}

TEST(BekkerFlexible, ASofterTireSinksLessResistsLessAndPullsMore) {
  // Wong's argument for lowering the pressure on soft soil: on dry sand under 6.4 kN
  const BekkerSoil s = *find_bekker_soil("dry_sand");
  const FlexibleTire rigid{.r = kR, .b = kB, .p_g = 0.0};
  const FlexibleTire soft{.r = kR, .b = kB, .p_g = 50.0e3};
  const auto at = [&](const FlexibleTire& t, double slip) {
    return flexible_wheel_forces(s, t, flexible_wheel_penetration(s, t, 6400.0, slip), slip);
  };
  const FlexibleWheelForces r0 = at(rigid, 0.0);
  const FlexibleWheelForces f0 = at(soft, 0.0);
  ASSERT_TRUE(f0.flexible);
  expect_rel(f0.forces.W, 6400.0);
  EXPECT_LT(f0.sinkage, 0.5 * r0.sinkage);
  EXPECT_LT(f0.forces.resistance, 0.5 * r0.forces.resistance);
  EXPECT_GT(at(soft, 0.2).forces.DP, at(rigid, 0.2).forces.DP);
}

TEST(BekkerFlexible, TheContactTakesTheGroundPressureAndDefaultsToTheRigidWheel) {
  const BekkerSoil s = *find_bekker_soil("sandy_loam");
  const TireParams tire;  // the HMMWV's 0.94 m × 0.318 m
  const BekkerContact rigid = bekker_contact(tire, s, 0.05, 0.0, 0.2, 1.0);
  const BekkerContact stiff = bekker_contact(tire, s, 0.05, 0.0, 0.2, 1.0, 1e12);
  EXPECT_EQ(stiff.N, rigid.N);
  EXPECT_EQ(stiff.gross, rigid.gross);
  EXPECT_EQ(stiff.resistance, rigid.resistance);
  EXPECT_EQ(stiff.mu_lat, rigid.mu_lat);
  const BekkerContact soft = bekker_contact(tire, s, 0.05, 0.0, 0.2, 1.0, 60.0e3);
  const FlexibleWheelForces f =
      flexible_wheel_forces(s, {.r = 0.47, .b = 0.318, .p_g = 60.0e3}, 0.05, 0.2);
  ASSERT_TRUE(f.flexible);
  expect_rel(soft.N, f.forces.W);
  expect_rel(soft.sinkage, f.sinkage);
  EXPECT_LT(soft.sinkage, 0.05);
}

}  // namespace
}  // namespace hil::models
