#pragma once
// Battery parameters from a manufacturer's discharge curve, the way the MATLAB "Battery" block
// takes them (Tremblay, Dessaint & Dekkiche 2007, §III "Extracting the parameters"): three
// points of the discharge curve at the nominal current — fully charged, end of the exponential
// zone, end of the nominal zone — plus the capacity and the internal resistance.
//
// The 2007 paper gives closed forms for its simpler model (A = V_full − V_exp, B = 3/Q_exp,
// then K and E0). The 2009 model we implement splits the polarisation into a resistance on i*
// and a voltage on it, so those closed forms no longer pass through the points. We keep
// B = 3/Q_exp (the exponential zone has decayed to e⁻³ at its end, the paper's definition)
// and solve the model's own steady-discharge curve (i* = I_nom, Exp = A·exp(−B·it)) for E0, K
// and A exactly through all three points: a 3 × 3 linear system. docs/models.md "Battery".
//
// Setup phase: may throw (std::invalid_argument naming the field).

#include "models/battery/battery.hpp"

namespace hil::models {

struct BatteryDatasheet {
  BatteryChemistry chemistry = BatteryChemistry::lead_acid;
  double full_voltage = 0.0;         ///< V_full: at it = 0 under I_nom [V]
  double exp_zone_voltage = 0.0;     ///< V_exp: end of the exponential zone [V]
  double exp_zone_charge = 0.0;      ///< Q_exp: extracted charge there [C]
  double nominal_voltage = 0.0;      ///< V_nom: end of the nominal zone [V]
  double nominal_charge = 0.0;       ///< Q_nom: extracted charge there [C]
  double nominal_current = 0.0;      ///< I_nom: discharge current of the curve [A]
  double capacity = 0.0;             ///< Q: maximum capacity [C]
  double internal_resistance = 0.0;  ///< R [Ω]
  double response_time = 30.0;       ///< T_response [s]
  double cutoff_voltage = 0.0;       ///< [V]
};

/// E0, K, A, B (and the rest copied) such that a steady discharge at I_nom passes exactly
/// through (0, V_full), (Q_exp, V_exp), (Q_nom, V_nom). Throws std::invalid_argument if the
/// points are not ordered (0 < Q_exp < Q_nom < Q, V_full > V_exp > V_nom > 0) or give K ≤ 0 or
/// A ≤ 0.
[[nodiscard]] BatteryParams battery_params_from_datasheet(const BatteryDatasheet& d);

/// Terminal voltage of the model's steady discharge curve at current I after extracting q:
/// i* = I, Exp = A·exp(−B·q) (tests, docs).
[[nodiscard]] double battery_steady_discharge_voltage(const BatteryParams& p, double current,
                                                      double extracted_charge) noexcept;

}  // namespace hil::models
