#include "models/battery/battery_datasheet.hpp"

#include <Eigen/Dense>
#include <cmath>
#include <stdexcept>
#include <string>

namespace hil::models {

namespace {

constexpr double kSecondsPerHour = 3600.0;

void require(bool ok, const char* field, const char* what) {
  if (!ok) throw std::invalid_argument(std::string("battery datasheet: ") + field + " " + what);
}

/// Coefficient of K in the steady discharge at current I after extracting q (battery.hpp,
/// discharge form with i* = I): Q/(Q − q)·(I + q [A·h]).
double k_coefficient(double Q, double I, double q) {
  return Q / (Q - q) * (I + q / kSecondsPerHour);
}

}  // namespace

BatteryParams battery_params_from_datasheet(const BatteryDatasheet& d) {
  require(d.capacity > 0.0, "capacity", "must be > 0");
  require(d.exp_zone_charge > 0.0, "exp_zone_charge", "must be > 0");
  require(d.nominal_charge > d.exp_zone_charge, "nominal_charge", "must exceed exp_zone_charge");
  require(d.capacity > d.nominal_charge, "capacity", "must exceed nominal_charge");
  require(d.nominal_voltage > 0.0, "nominal_voltage", "must be > 0");
  require(d.exp_zone_voltage > d.nominal_voltage, "exp_zone_voltage",
          "must exceed nominal_voltage");
  require(d.full_voltage > d.exp_zone_voltage, "full_voltage", "must exceed exp_zone_voltage");
  require(d.nominal_current > 0.0, "nominal_current", "must be > 0");
  require(d.internal_resistance >= 0.0, "internal_resistance", "must be >= 0");
  require(d.response_time > 0.0, "response_time", "must be > 0");

  const double Q = d.capacity;
  const double I = d.nominal_current;
  // Tremblay 2007 §III: B = 3/Q_exp (the exponential zone ends after three "time constants")
  const double B = 3.0 / d.exp_zone_charge;
  // Each point: E0 − c(q)·K + exp(−B·q)·A = V(q) + R·I   (unknowns E0, K, A)
  const double q[3] = {0.0, d.exp_zone_charge, d.nominal_charge};
  const double v[3] = {d.full_voltage, d.exp_zone_voltage, d.nominal_voltage};
  Eigen::Matrix3d M;
  Eigen::Vector3d rhs;
  for (int row = 0; row < 3; ++row) {
    M(row, 0) = 1.0;
    M(row, 1) = -k_coefficient(Q, I, q[row]);
    M(row, 2) = std::exp(-B * q[row]);
    rhs(row) = v[row] + d.internal_resistance * I;
  }
  const Eigen::FullPivLU<Eigen::Matrix3d> lu(M);
  require(lu.isInvertible(), "points", "are degenerate (no unique E0, K, A)");
  const Eigen::Vector3d x = lu.solve(rhs);
  require(x(1) > 0.0, "points", "give a polarisation constant K <= 0 (nominal zone too flat)");
  require(x(2) > 0.0, "points", "give an exponential amplitude A <= 0");

  return {.chemistry = d.chemistry,
          .e0 = x(0),
          .k = x(1),
          .a = x(2),
          .b = B,
          .r = d.internal_resistance,
          .capacity = Q,
          .response_time = d.response_time,
          .cutoff_voltage = d.cutoff_voltage};
}

double battery_steady_discharge_voltage(const BatteryParams& p, double current,
                                        double extracted_charge) noexcept {
  const BatteryState s{.extracted_charge = extracted_charge,
                       .filtered_current = current,
                       .exp_zone = p.a * std::exp(-p.b * extracted_charge)};
  return battery_terminal_voltage(p, s, current);
}

}  // namespace hil::models
