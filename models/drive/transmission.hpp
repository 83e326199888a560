#pragma once
// Gearbox selection logic (autosim-physics-thesis.txt §4.4.2–4.4.5): gear ratios, a sequential
// manual mode (one lever selects the next higher gear, the other the next lower; only
// adjacent gears) and an automatic mode that shifts on input-shaft speed thresholds ("whenever
// rpm corresponding to the maximum achievable torque value is reached, the gear is up
// shifted ... when the rpm value falls to the set minimum limit, the gear is down shifted").
// Discrete: updated at tick boundaries, held across the RK4 step. docs/models.md
// "Combustion powertrain". Pure functions over a caller-owned state; RT-safe.

#include <array>
#include <cstddef>

namespace hil::models {

enum class ShiftMode { manual, automatic };

struct TransmissionParams {
  static constexpr std::size_t kMaxForwardGears = 10;
  /// Reductions ω_in/ω_out of gears 1..n (> 0, decreasing), AutoSim "r_g".
  std::array<double, kMaxForwardGears> forward_ratios{3.6, 2.1, 1.4, 1.0, 0.8};
  std::size_t forward_count = 5;  ///< n ∈ [1, kMaxForwardGears] (AutoSim: five plus neutral)
  double reverse_ratio = 3.5;     ///< reduction of reverse (> 0; it turns the output backwards)
  double final_drive = 4.1;       ///< differential reduction, AutoSim "r_d" (> 0)
  double efficiency = 0.9;        ///< η of gearbox + final drive, AutoSim "n" (0, 1]
  ShiftMode mode = ShiftMode::automatic;
  double upshift_speed = 418.9;    ///< automatic: up-shift above this input speed [rad/s]
  double downshift_speed = 157.1;  ///< automatic: down-shift below this input speed [rad/s]
  double shift_latency = 0.5;      ///< automatic: minimum time between shifts [s]
  double shift_time = 0.3;         ///< clutch re-engagement ramp after any shift [s], ≥ 0
};

/// Gear −1 = reverse, 0 = neutral, 1..n forward.
struct TransmissionState {
  int gear = 0;
  double since_shift = 1e9;  ///< time since the last gear change [s]
  bool up_held = false;      ///< last tick's lever states (shifts happen on a press)
  bool down_held = false;
};

/// State at start: automatic in gear 1 (AutoSim: "set to gear number 1 in case of automatic"),
/// manual in neutral (AutoSim: "set to neutral in case of manual gear driven vehicles").
[[nodiscard]] TransmissionState transmission_initial_state(const TransmissionParams& p) noexcept;

/// Signed reduction of a gear: +r_g forward, −r_reverse in reverse, 0 in neutral (and for a
/// gear out of range).
[[nodiscard]] double gear_ratio(const TransmissionParams& p, int gear) noexcept;

/// One tick. Levers act on a press (not while held). Manual: up R→N→1→…→n, down n→…→1→N→R.
/// Automatic: the levers move the selector R ↔ N ↔ D (up from N engages gear 1, down from any
/// forward gear selects N); in D the gear follows `input_speed` (|ω_in| of the current gear,
/// or what it would be: the propshaft speed times the ratio) across the thresholds, at most
/// one gear per shift_latency.
void transmission_update(const TransmissionParams& p, TransmissionState& s, bool up, bool down,
                         double input_speed, double dt) noexcept;

/// Clutch engagement after a shift ∈ [0, 1]: since_shift/shift_time (1 if shift_time = 0).
[[nodiscard]] double shift_engagement(const TransmissionParams& p,
                                      const TransmissionState& s) noexcept;

}  // namespace hil::models
