// Tremblay–Dessaint generic battery (models/battery/battery.hpp,
// models/battery/battery_datasheet.hpp): integrated curves against the closed-form model, the
// published charge forms, charge bookkeeping, datasheet extraction and the RAVON 48 V pack.

#include "models/battery/battery.hpp"

#include <cmath>
#include <functional>
#include <numbers>
#include <stdexcept>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "models/battery/battery_datasheet.hpp"
#include "models/drive/electric_drive_params.hpp"
#include "rt_core/rk4.hpp"

namespace hil::models {
namespace {

constexpr double kAh = 3600.0;

struct Rk4Battery {
  double it = 0.0, i_star = 0.0, exp_zone = 0.0;
  Rk4Battery operator+(const Rk4Battery& o) const {
    return {it + o.it, i_star + o.i_star, exp_zone + o.exp_zone};
  }
  friend Rk4Battery operator*(double h, const Rk4Battery& a) {
    return {h * a.it, h * a.i_star, h * a.exp_zone};
  }
  [[nodiscard]] BatteryState state() const {
    return {.extracted_charge = it, .filtered_current = i_star, .exp_zone = exp_zone};
  }
};

/// Integrates the battery under the current profile i(t) for `seconds`; `each(t, s)` per step.
template <class Each>
Rk4Battery run(const BatteryParams& p, Rk4Battery s, const std::function<double(double)>& i,
               double seconds, double dt, Each each) {
  auto f = [&](double t, const Rk4Battery& x) {
    const BatteryRates r = battery_rates(p, x.state(), i(t));
    return Rk4Battery{r.extracted_charge, r.filtered_current, r.exp_zone};
  };
  const int steps = static_cast<int>(std::lround(seconds / dt));
  for (int k = 0; k < steps; ++k) {
    s = rt::rk4_step(f, k * dt, s, dt);
    each((k + 1) * dt, s);
  }
  return s;
}

BatteryParams params(BatteryChemistry c) {
  BatteryParams p = ravon_drive_params().battery;
  p.chemistry = c;
  return p;
}

/// Closed-form discharge (Tremblay & Dessaint 2009) at constant current I from a fresh full
/// battery (it = 0, i* = 0, Exp = A): it = I·t, i* = I·(1 − e^{−t/T}), X = A·e^{−B·I·t}.
double analytic_discharge_voltage(const BatteryParams& p, double I, double t) {
  const double Q = p.capacity;
  const double it = I * t;
  const double i_star = I * (1.0 - std::exp(-t / p.response_time));
  const double kq = p.k * Q / (Q - it);
  return p.e0 - kq * i_star - kq * it / kAh + p.a * std::exp(-p.b * it) - p.r * I;
}

class BatteryChemistries : public ::testing::TestWithParam<BatteryChemistry> {};

TEST_P(BatteryChemistries, ConstantCurrentDischargeMatchesTheClosedForm) {
  const BatteryParams p = params(GetParam());
  constexpr double kI = 40.0;
  Rk4Battery s{.exp_zone = battery_initial_state(p, 1.0).exp_zone};
  double worst = 0.0;
  (void)run(
      p, s, [](double) { return kI; }, 0.8 * p.capacity / kI, 1.0,
      [&](double t, const Rk4Battery& x) {
        const double v = battery_terminal_voltage(p, x.state(), kI);
        const double ref = analytic_discharge_voltage(p, kI, t);
        worst = std::max(worst, std::abs(v - ref) / ref);
      });
  EXPECT_LT(worst, 1e-6);
}

INSTANTIATE_TEST_SUITE_P(All, BatteryChemistries,
                         ::testing::Values(BatteryChemistry::lead_acid,
                                           BatteryChemistry::lithium_ion,
                                           BatteryChemistry::nickel_metal_hydride));

TEST(Battery, ChargeUsesThePublishedPolarisationResistance) {
  BatteryParams p = params(BatteryChemistry::lithium_ion);
  const double Q = p.capacity;
  const BatteryState s{.extracted_charge = 0.4 * Q, .filtered_current = -30.0};
  // Li-ion charge: E0 − K·Q/(it + 0.1·Q)·i* − K·Q/(Q − it)·it + A·exp(−B·it)
  const double li = p.e0 - p.k * Q / (0.5 * Q) * -30.0 - p.k * Q / (0.6 * Q) * (0.4 * Q / kAh) +
                    p.a * std::exp(-p.b * 0.4 * Q);
  EXPECT_NEAR(battery_source_voltage(p, s), li, 1e-12);
  // Lead-acid charge: the same polarisation resistance, the Exp state instead of A·e^(−B·it)
  p.chemistry = BatteryChemistry::lead_acid;
  const BatteryState lead{.extracted_charge = 0.4 * Q, .filtered_current = -30.0, .exp_zone = 0.7};
  EXPECT_NEAR(battery_source_voltage(p, lead), li - p.a * std::exp(-p.b * 0.4 * Q) + 0.7, 1e-12);
  // NiMH charge: K·Q/(|it| + 0.1·Q); differs from lead-acid once it < 0 (over-charged)
  p.chemistry = BatteryChemistry::nickel_metal_hydride;
  const BatteryState over{.extracted_charge = -0.05 * Q, .filtered_current = -30.0};
  const double nimh =
      p.e0 - p.k * Q / (0.15 * Q) * -30.0 - p.k * Q / (1.05 * Q) * (-0.05 * Q / kAh);
  EXPECT_NEAR(battery_source_voltage(p, over), nimh, 1e-12);
}

TEST(Battery, ExponentialZoneHysteresisRisesInChargeAndDecaysInDischarge) {
  const BatteryParams p = params(BatteryChemistry::lead_acid);
  constexpr double kI = 50.0;
  // Charging from Exp = 0 with i* already negative: dExp/dt = B·|i|·(A − Exp)
  Rk4Battery s{.it = 0.5 * p.capacity, .i_star = -kI, .exp_zone = 0.0};
  s = run(
      p, s, [](double) { return -kI; }, 600.0, 1.0, [](double, const Rk4Battery&) {});
  // i* stays at −I, so the closed form is A·(1 − exp(−B·I·t))
  EXPECT_NEAR(s.exp_zone, p.a * (1.0 - std::exp(-p.b * kI * 600.0)), 1e-9);
  // Discharging: the same exponential decay towards 0
  Rk4Battery d{.it = 0.5 * p.capacity, .i_star = kI, .exp_zone = p.a};
  d = run(
      p, d, [](double) { return kI; }, 600.0, 1.0, [](double, const Rk4Battery&) {});
  EXPECT_NEAR(d.exp_zone, p.a * std::exp(-p.b * kI * 600.0), 1e-9);
}

TEST(Battery, ChargeIsConservedOverADischargeChargeCycle) {
  const BatteryParams p = params(BatteryChemistry::lead_acid);
  // One hour: a slow cycle of ±60 A (out for 30 min, back for 30 min) with a ±25 A ripple.
  auto current = [](double t) {
    return 60.0 * std::sin(2.0 * std::numbers::pi * t / 3600.0) +
           25.0 * std::sin(2.0 * std::numbers::pi * t / 100.0);
  };
  const Rk4Battery start{.it = 0.3 * p.capacity};
  const Rk4Battery end = run(p, start, current, 3600.0, 0.05, [](double, const Rk4Battery&) {});
  EXPECT_NEAR(battery_soc(p, end.it), battery_soc(p, start.it), 1e-9);
  EXPECT_NEAR(end.it, start.it, 1e-9 * p.capacity);
}

TEST(Battery, VoltageStaysPhysicalWhenOverDischargedOrOverCharged) {
  const BatteryParams p = params(BatteryChemistry::lithium_ion);
  const double e_empty = battery_source_voltage(p, {.extracted_charge = 2.0 * p.capacity});
  EXPECT_GE(e_empty, 0.0);
  EXPECT_LT(e_empty, p.e0);
  const double e_over =
      battery_source_voltage(p, {.extracted_charge = -p.capacity, .filtered_current = -500.0});
  EXPECT_LE(e_over, 2.0 * p.e0);
  EXPECT_TRUE(std::isfinite(e_over));
}

/// The two datasheet examples of the MATLAB "Battery" block documentation ("Extracting
/// Battery Parameters From Data Sheets"): Panasonic NiMH-HHR650D and A123 ANR26650M1 — and the
/// RAVON pack.
std::vector<BatteryDatasheet> datasheets() {
  return {{.chemistry = BatteryChemistry::nickel_metal_hydride,
           .full_voltage = 1.39,
           .exp_zone_voltage = 1.28,
           .exp_zone_charge = 1.3 * kAh,
           .nominal_voltage = 1.18,
           .nominal_charge = 6.25 * kAh,
           .nominal_current = 1.3,
           .capacity = 7.0 * kAh,
           .internal_resistance = 0.002},
          {.chemistry = BatteryChemistry::lithium_ion,
           .full_voltage = 3.7,
           .exp_zone_voltage = 3.4,
           .exp_zone_charge = 0.23 * kAh,
           .nominal_voltage = 3.22,
           .nominal_charge = 2.07 * kAh,
           .nominal_current = 2.3,
           .capacity = 2.3 * kAh,
           .internal_resistance = 0.010},
          ravon_battery_datasheet()};
}

TEST(BatteryDatasheet, ExtractedModelPassesThroughTheThreePoints) {
  for (const BatteryDatasheet& d : datasheets()) {
    const BatteryParams p = battery_params_from_datasheet(d);
    const double I = d.nominal_current;
    EXPECT_NEAR(p.b, 3.0 / d.exp_zone_charge, 1e-15);
    EXPECT_NEAR(battery_steady_discharge_voltage(p, I, 0.0), d.full_voltage, 1e-9);
    EXPECT_NEAR(battery_steady_discharge_voltage(p, I, d.exp_zone_charge), d.exp_zone_voltage,
                1e-9);
    EXPECT_NEAR(battery_steady_discharge_voltage(p, I, d.nominal_charge), d.nominal_voltage, 1e-9);
    EXPECT_GT(p.k, 0.0);
    EXPECT_GT(p.a, 0.0);
    // The curve keeps falling through the nominal zone (no bump between the points)
    double last = d.full_voltage;
    for (int n = 1; n <= 100; ++n) {
      const double v = battery_steady_discharge_voltage(p, I, d.nominal_charge * n / 100.0);
      EXPECT_LT(v, last) << n;
      last = v;
    }
  }
}

TEST(BatteryDatasheet, BadPointsNameTheField) {
  BatteryDatasheet d = ravon_battery_datasheet();
  d.exp_zone_voltage = d.full_voltage + 1.0;
  try {
    (void)battery_params_from_datasheet(d);
    FAIL() << "no exception";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("full_voltage"), std::string::npos) << e.what();
  }
  d = ravon_battery_datasheet();
  d.nominal_charge = d.capacity;
  EXPECT_THROW((void)battery_params_from_datasheet(d), std::invalid_argument);
}

TEST(RavonPack, NominalPointGivesNominalVoltage) {
  const BatteryDatasheet d = ravon_battery_datasheet();
  const BatteryParams p = battery_params_from_datasheet(d);
  // Discharge the full pack at I_nom (i* starting at 0: the filter settles long before)
  const double I = d.nominal_current;
  Rk4Battery s{.exp_zone = battery_initial_state(p, 1.0).exp_zone};
  s = run(
      p, s, [&](double) { return I; }, d.nominal_charge / I, 1.0, [](double, const Rk4Battery&) {});
  const double v = battery_terminal_voltage(p, s.state(), I);
  EXPECT_NEAR(v, 48.0, 0.005 * 48.0);
  EXPECT_NEAR(d.nominal_voltage, 48.0, 1e-12);
  // and it reaches the cut-off (42 V) before the maximum capacity
  Rk4Battery deep = run(
      p, s, [&](double) { return I; }, 0.3 * p.capacity / I, 1.0, [](double, const Rk4Battery&) {});
  EXPECT_LT(battery_terminal_voltage(p, deep.state(), I), p.cutoff_voltage);
}

}  // namespace
}  // namespace hil::models
