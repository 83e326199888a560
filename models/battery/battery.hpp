#pragma once
// Generic battery model of Tremblay, Dessaint & Dekkiche (VPPC 2007) in the form of Tremblay
// & Dessaint, "Experimental Validation of a Battery Dynamic Model for EV Applications" (World
// Electric Vehicle Journal 3, 2009) — the model behind the MATLAB/SimPowerSystems "Battery"
// block that RAVON uses (ravon-distributed-realtime-sim.txt §3.6, ref. [8]). docs/models.md
// "Battery" states exactly which equations are implemented and why.
//
// A controlled voltage source E in series with R: V = E − R·i, i > 0 discharging.
//   discharge (i* > 0): E = E0 − K·Q/(Q − it)·i* − K·Q/(Q − it)·it + X
//   charge    (i* < 0): E = E0 − K·Q/(it + 0.1·Q)·i* − K·Q/(Q − it)·it + X   (lead-acid, Li-ion)
//                      E = E0 − K·Q/(|it| + 0.1·Q)·i* − K·Q/(Q − it)·it + X (NiMH, NiCd)
//   X = A·exp(−B·it) (Li-ion); X = Exp, dExp/dt = B·|i|·(−Exp + A·u), u = 1 charging, 0
//   discharging (lead-acid, NiMH/NiCd: the hysteresis of the exponential zone).
//   d(it)/dt = i,  di*/dt = (i − i*)/T_response.
//
// Units. The state is SI (it in coulombs). The published model uses one K for two terms: as a
// resistance [Ω] on i* [A] and as a polarisation constant [V/Ah] on it [Ah]; we keep that (the
// MATLAB parameter sets carry over) and convert it to A·h in the second term. B is stored per
// coulomb, so exp(−B·it) and the Exp dynamics are the same function of extracted charge.
// Pure functions; RT-safe.

namespace hil::models {

enum class BatteryChemistry {
  lead_acid,             ///< exponential zone as a hysteresis state
  lithium_ion,           ///< exponential zone A·exp(−B·it)
  nickel_metal_hydride,  ///< also NiCd: hysteresis state, |it| in the charge polarisation
};

struct BatteryParams {
  BatteryChemistry chemistry = BatteryChemistry::lead_acid;
  double e0 = 50.0;              ///< E0: battery constant voltage [V]
  double k = 0.05;               ///< K: polarisation constant [V/Ah] = polarisation resistance [Ω]
  double a = 2.0;                ///< A: exponential zone amplitude [V]
  double b = 1e-4;               ///< B: exponential zone inverse time constant [1/C]
  double r = 0.02;               ///< R: internal resistance [Ω]
  double capacity = 360'000.0;   ///< Q: maximum capacity [C] (100 A·h)
  double response_time = 30.0;   ///< T_response of the i* filter [s] (MATLAB default 30 s)
  double cutoff_voltage = 42.0;  ///< terminal voltage at which the drives stop motoring [V]
};

/// The three continuous states. Value-initialised = fresh, fully charged, at rest (Exp = 0:
/// call battery_initial_state() for the Exp of a battery that was just charged).
struct BatteryState {
  double extracted_charge = 0.0;  ///< it = ∫i dt [C]
  double filtered_current = 0.0;  ///< i*: i through the first-order response filter [A]
  double exp_zone = 0.0;          ///< Exp [V] (lead-acid, NiMH/NiCd; unused for Li-ion)
};

struct BatteryRates {
  double extracted_charge = 0.0;  ///< d(it)/dt = i [A]
  double filtered_current = 0.0;  ///< di*/dt [A/s]
  double exp_zone = 0.0;          ///< dExp/dt [V/s]
};

/// State of a battery at rest at state of charge `soc` ∈ [0, 1] reached by discharging from
/// full: it = (1 − soc)·Q, i* = 0, Exp = A·exp(−B·it) (what the Exp dynamics leave behind).
[[nodiscard]] BatteryState battery_initial_state(const BatteryParams& p, double soc) noexcept;

/// E: the controlled voltage source (no-load voltage including polarisation), clamped to
/// [0, 2·E0] as the MATLAB block limits it; it is limited to Q·(1 − 1e-3) in Q − it.
[[nodiscard]] double battery_source_voltage(const BatteryParams& p, const BatteryState& s) noexcept;

/// V = E − R·i [V] for the current i (> 0 discharging) flowing now.
[[nodiscard]] double battery_terminal_voltage(const BatteryParams& p, const BatteryState& s,
                                              double current) noexcept;

/// Derivatives of the three states under the current i.
[[nodiscard]] BatteryRates battery_rates(const BatteryParams& p, const BatteryState& s,
                                         double current) noexcept;

/// SOC = 1 − it/Q (not limited: it shows over-charge and over-discharge as they are).
[[nodiscard]] double battery_soc(const BatteryParams& p, double extracted_charge) noexcept;

}  // namespace hil::models
