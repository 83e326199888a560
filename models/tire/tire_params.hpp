#pragma once
// Parameters of one tire (mavs-vti-model.md symbol table) plus the contact-patch
// ("damped spring") parameters of the low-speed regularisation (docs/models.md, ruling 3).
// SI units throughout. Defaults: a HMMWV-size tire (37x12.5R16.5, radius 0.47 m).

namespace hil::models {

struct TireParams {
  double width = 0.318;               ///< b: section width [m]
  double diameter = 0.94;             ///< d: unloaded diameter [m]
  double section_height = 0.20;       ///< h: section height [m]
  double vertical_stiffness = 4.0e5;  ///< k [N/m] (mavs-vti-model.md Step 2)
  double vertical_damping = 4.0e3;    ///< c [N·s/m] (mavs-vti-model.md Step 2)
  double spin_inertia = 3.0;          ///< I_t: wheel + tire spin inertia [kg·m²] (Step 5)
  double bearing_damping = 0.1;  ///< β: viscous spin friction [N·m·s/rad] (Step 5; MAVS: 0.1)
  double crolla_gamma = 0.09;    ///< γ: Crolla lateral coefficient [rad] (ruling 5)

  // Low-speed regularisation (ruling 3): the contact patch is a spring-damper in series with
  // the sliding friction, TMeasy-style. Stiffness and damping scale with the normal force N,
  // so a vehicle of any mass on its tires has the same natural frequency and damping ratio
  // (ω_n = sqrt(g·stiffness_per_load), ζ = damping·sqrt(g / stiffness) / 2).
  /// c_x / N: longitudinal contact stiffness per newton of load [1/m]. At full grip μ·N the
  /// patch deflects μ / 300 ≈ 3 mm; parked on a 15 % grade it deflects 0.15/300 = 0.5 mm.
  double patch_stiffness_x_per_load = 300.0;
  /// d_x / N: longitudinal contact damping per newton of load [s/m] (ζ ≈ 0.25).
  double patch_damping_x_per_load = 2.8;
  /// c_y / N: lateral contact stiffness per newton of load [1/m].
  double patch_stiffness_y_per_load = 200.0;
  /// d_y / N: lateral contact damping per newton of load [s/m] (ζ ≈ 0.25).
  double patch_damping_y_per_load = 2.2;
  /// Rolling resistance coefficient C_rr on the Pacejka surfaces [-]: a force −C_rr·N against
  /// the travel at the hub (docs/models.md "Rolling resistance"). MAVS's pavement VTI has
  /// none, hence 0 here; the vehicle presets set 0.01–0.015. Soils use their own motion
  /// resistance R instead.
  double rolling_resistance = 0.0;
  /// Below this travel speed the soil motion resistance and the rolling resistance fade
  /// linearly to zero, so that a parked wheel is not pushed by a resistance that has no
  /// direction [m/s].
  double resistance_fade_speed = 0.1;
};

}  // namespace hil::models
