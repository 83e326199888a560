#pragma once
// A torsional spring-damper in series with a friction slider of limited capacity: the dry
// clutch between engine and gearbox (AutoSim §4.4.2: "a gearbox, a clutch, a propeller shaft
// and a drive axle"), and, with unlimited capacity, the driveline's own compliance. The same
// series form as the tire's contact patch (docs/models.md, ruling 3, TMeasy):
//
//   stuck:    φ̇ = Δω,                       T = k·φ + c·Δω      while |k·φ + c·Δω| ≤ T_cap
//   slipping: T = ±T_cap (sign of k·φ + c·Δω), φ̇ = (T − k·φ)/c    (the slider takes the rest)
//
// φ is the spring twist (a state the caller integrates), Δω the speed of the input side
// minus the output side, T the torque handed from the input to the output side. Capacity 0
// (clutch open) leaves T = 0 and lets the twist relax with time constant c/k. Everything is
// continuous in the state, so shifts and launches need no event handling. Pure; RT-safe.

namespace hil::models {

struct CompliantCouplingParams {
  double stiffness = 1000.0;  ///< k [N·m/rad], > 0
  double damping = 20.0;      ///< c [N·m·s/rad], > 0
};

struct CouplingTorque {
  double torque = 0.0;      ///< T: input side → output side [N·m]
  double twist_rate = 0.0;  ///< φ̇ [rad/s]
};

[[nodiscard]] CouplingTorque compliant_coupling(const CompliantCouplingParams& p, double twist,
                                                double relative_speed, double capacity) noexcept;

}  // namespace hil::models
