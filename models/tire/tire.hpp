#pragma once
// One tire on the terrain: mavs-vti-model.md Steps 2–5 for a caller (the chassis) that
// integrates the whole vehicle state with RK4 and calls evaluate_tire() once per wheel per
// RK4 stage. Everything here is a pure function: `const`, noexcept, no allocation, no I/O.
//
// Frame: the STEERED wheel frame, ISO 8855 (x forward along the wheel heading, y left,
// z up along the terrain normal). The caller rotates the hub velocity into it (Step 1) and
// the forces back out (Step 6). Units: SI.
//
// State owned by the caller: the wheel spin ω (integrate wheel_spin_acceleration()) and the
// contact-patch deflection TirePatchState (integrate TireOutputs::patch_rate), both in the
// same RK4 step as the chassis. Start the patch state at {0, 0}.

#include "models/terrain/surface.hpp"
#include "models/tire/tire_params.hpp"

namespace hil::models {

/// Contact-patch deflection relative to the wheel centre plane [m] (ruling 3): the low-speed
/// regularisation state. Longitudinal u_x, lateral u_y.
struct TirePatchState {
  double u_x = 0.0;
  double u_y = 0.0;
};

struct TireInputs {
  double v_par = 0.0;       ///< v∥: hub velocity along the steered wheel heading [m/s]
  double v_perp = 0.0;      ///< v⊥: hub velocity along the wheel axis, + left [m/s]
  double delta = 0.0;       ///< δ = Z(x, y) + d/2 − p_z: tire deflection [m] (Step 2)
  double delta_rate = 0.0;  ///< dδ/dt [m/s]; −v↑ on static terrain (Step 2)
  double omega = 0.0;       ///< ω: wheel spin, + when rolling forward [rad/s]
  SurfaceProperties surface;
};

struct TireOutputs {
  double Fx = 0.0;  ///< longitudinal force on the hub, steered wheel frame [N]
  /// The part of Fx that the ground exerts through the wheel's rotation (gross traction, no
  /// motion or rolling resistance): what the wheel spin equation sees [N].
  double Fx_traction = 0.0;
  double Fy = 0.0;            ///< lateral force on the hub, steered wheel frame, + left [N]
  double N = 0.0;             ///< normal force along the terrain normal [N] (ruling 9)
  double s = 0.0;             ///< kinematic slip ∈ [−1, 1], + when driving (ruling 2)
  double alpha = 0.0;         ///< kinematic slip angle atan(v⊥/|v∥|) [rad] (ruling 1)
  double r_eff = 0.0;         ///< effective rolling radius d/2 − δ [m] (Step 3)
  double sinkage = 0.0;       ///< soft soil (Bekker–Wong): sinkage below the surface [m]; else 0
  TirePatchState patch_rate;  ///< d/dt of the patch state: integrate it with the chassis
};

/// N = max(0, k·δ + c·dδ/dt), 0 when δ ≤ 0 (ruling 9).
[[nodiscard]] double normal_force(const TireParams& p, double delta, double delta_rate) noexcept;

/// r_eff = d/2 − δ (Step 3); d/2 when the tire is off the ground (δ ≤ 0).
[[nodiscard]] double effective_radius(const TireParams& p, double delta) noexcept;

/// Kinematic slip (ruling 2): (rω − v∥)/(rω) when driving, (rω − v∥)/v∥ when braking,
/// mirrored in reverse (so + when driving either way); −1 for a locked sliding wheel, +1 for
/// a wheel spinning at standstill, 0 at rest. Clamped to [−1, 1].
[[nodiscard]] double longitudinal_slip(double v_par, double r_omega) noexcept;

/// Slip angle α = atan(v⊥/|v∥|) in the steered frame (ruling 1): ±π/2 when v∥ = 0 ≠ v⊥,
/// 0 at rest. No steering angle is subtracted.
[[nodiscard]] double slip_angle(double v_par, double v_perp) noexcept;

/// Forces, normal load, slip, slip angle and patch-state rate of one tire (Steps 2–4).
[[nodiscard]] TireOutputs evaluate_tire(const TireParams& p, const TireInputs& in,
                                        const TirePatchState& patch) noexcept;

struct TireOutputsPair {
  TireOutputs first;
  TireOutputs second;
};

/// evaluate_tire() of two tires: the same results bit for bit, each transcendental of both in
/// one vector call (the lanes form, for two or four tires: models/tire/tire_lanes.hpp).
[[nodiscard]] TireOutputsPair evaluate_tires(const TireParams& p_a, const TireInputs& in_a,
                                             const TirePatchState& patch_a, const TireParams& p_b,
                                             const TireInputs& in_b,
                                             const TirePatchState& patch_b) noexcept;

/// dω/dt = (Q − r_eff·Fx − β·ω)/I (ruling 8), Q the drive + brake torque on the wheel [N·m].
/// Pass Fx = TireOutputs::Fx_traction: resistances act at the hub, not through the spin.
[[nodiscard]] double wheel_spin_acceleration(const TireParams& p, double Q, double r_eff, double Fx,
                                             double omega) noexcept;

}  // namespace hil::models
