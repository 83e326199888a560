#pragma once
// The longitudinal controller of the virtual ECU for a combustion drive (docs/ecu.md
// "Driver"): a cascade, as production adaptive-cruise and speed controllers are built
// (an outer speed loop setting a desired acceleration, an inner acceleration loop on the
// actuators; Rajamani, Vehicle Dynamics and Control, 2nd ed., §5.3 "upper and lower
// controllers"):
//     a_des = a_ref + k_v·(v_ref − v)                      (upper: speed → acceleration)
//     u     = k_p·(a_des − a) + k_i·∫(a_des − a) dt        (lower: acceleration → pedal)
// u ∈ [−1, 1] is the pedal: throttle u > 0, brake −u. a is the measured acceleration, dv/dt
// of the measured speed through a first-order low-pass (τ_a). The lower loop's integral finds
// the pedal the load asks for — a grade, the idle governor's dead band at the bottom of the
// throttle, the torque converter's slip — so in steady state a = 0 and a_des = 0: v = v_ref
// with no offset, on any grade. Anti-windup: the integral stops at the pedal's stops.
// Setup: the constructor; update() and reset() are RT (no allocation).

namespace hil::ecu {

struct SpeedControlGains {
  // Defaults tuned on the HMMWV (docs/ecu.md "Driver"): the middle of the region where both
  // its 10 % hill start and its flat start hold 1 m/s within 3 and 2 cm/s
  double speed_gain = 2.0;    ///< k_v [1/s]: desired acceleration per m/s of speed error
  double pedal_kp = 0.5;      ///< k_p [pedal per m/s²]
  double pedal_ki = 1.0;      ///< k_i [pedal per m/s² per s]
  double accel_filter = 0.1;  ///< τ_a of the measured acceleration [s]
  double max_accel = 3.0;     ///< a_des limits [m/s²]
  double max_decel = 4.0;
};

class SpeedController {
 public:
  SpeedController(SpeedControlGains gains, double cycle_s) noexcept;

  /// RT: the pedal for the reference `speed_ref` (changing at `ref_accel` [m/s²]) and the
  /// measured speed `measured`, once per control cycle.
  [[nodiscard]] double update(double speed_ref, double ref_accel, double measured) noexcept;
  /// RT: forget the integral and the acceleration estimate (the vehicle was held).
  void reset() noexcept;

 private:
  SpeedControlGains gains_;
  double cycle_s_;
  double integral_ = 0.0;  ///< k_i·∫(a_des − a) dt [pedal]
  double accel_ = 0.0;     ///< filtered dv/dt [m/s²]
  double last_speed_ = 0.0;
  bool started_ = false;
};

}  // namespace hil::ecu
