#include "models/tire/bekker_flexible.hpp"

#include <algorithm>
#include <cmath>

#include "models/math/increasing_root.hpp"
#include "models/tire/bekker_quadrature.hpp"

namespace hil::models {

namespace {

/// Sums over the arcs of the five integrands (per r·b, or r²·b for the torque), as
/// bekker_wong.cpp's.
struct ArcSums {
  double sigma_cos = 0.0, tau_sin = 0.0, tau_cos = 0.0, sigma_sin = 0.0, tau = 0.0;

  void add(double weight, double theta, double sigma, double tau_theta) noexcept {
    const double sin_t = std::sin(theta);
    const double cos_t = std::cos(theta);
    sigma_cos += weight * sigma * cos_t;
    tau_sin += weight * tau_theta * sin_t;
    tau_cos += weight * tau_theta * cos_t;
    sigma_sin += weight * sigma * sin_t;
    tau += weight * tau_theta;
  }
};

/// v/(rω) at slip s: 1 − s driving, 1/(1 + s) braking (as bekker_wong.cpp).
double speed_ratio(double s) noexcept {
  return s >= 0.0 ? 1.0 - std::min(s, 1.0) : 1.0 / std::max(1.0 + s, 1e-9);
}

/// The angle whose versine is h/r: 1 − cos θ = h/r, computed as 2·asin√(h/2r).
double angle_of_depth(double h, double r) noexcept {
  return 2.0 * std::asin(std::sqrt(std::clamp(0.5 * h / r, 0.0, 1.0)));
}

}  // namespace

double rigid_wheel_ground_pressure(const BekkerSoil& soil, double b, double z) noexcept {
  return plate_pressure(soil, b, z);  // Bekker: p = k·zⁿ at the lowest point (Wong's criterion)
}

FlexibleWheelForces flexible_wheel_forces(const BekkerSoil& soil, const FlexibleTire& tire,
                                          double z, double s) noexcept {
  const double r = tire.r;
  const double b = tire.b;
  FlexibleWheelForces out;
  if (!(z > 0.0) || !soil.valid() || !(r > 0.0) || !(b > 0.0)) return out;
  z = std::min(z, r);
  // Wong: the tire is rigid while p_i + p_c ≥ the rigid wheel's ground pressure k·zⁿ
  if (!(tire.p_g > 0.0) || tire.p_g >= rigid_wheel_ground_pressure(soil, b, z)) {
    out.forces = rigid_wheel_forces(soil, {.r = r, .b = b}, z, s);
    out.sinkage = z;
    out.contact_length = r * (std::sin(out.forces.theta1) + std::sin(soil.c3 * out.forces.theta1));
    return out;
  }
  const double k = pressure_sinkage_modulus(soil, b);
  const double z0 = plate_sinkage(soil, b, tire.p_g);  // Wong: the flat sinks (p_g/k)^(1/n)
  const double deflection = z - z0;
  const double theta1 = angle_of_depth(z, r);            // entry: cos θ1 = 1 − z/r
  const double theta_f = angle_of_depth(deflection, r);  // the flat: cos θ_f = 1 − δ_t/r
  const double cos1 = 1.0 - z / r;
  const double sin1 = std::sin(theta1);
  const double half_flat = r * std::sin(theta_f);
  const double flat = 2.0 * half_flat;
  const double theta_e = -theta_f - soil.c3 * theta1;  // exit behind the flat (c3 = 0: none)
  const double k_rn = k * std::pow(r, soil.n);
  const double rho = speed_ratio(s);
  // σ along the undeformed circle: Bekker's law at the rim's depth r·(cos θ − cos θ1)
  const auto sigma_at = [&](double theta) {
    return k_rn * std::pow(std::max(std::cos(theta) - cos1, 0.0), soil.n);
  };

  ArcSums arcs;
  // Front arc θ_f ≤ θ ≤ θ1 (Wong & Reece 1967): j = r·[(θ1 − θ) − (v/rω)(sin θ1 − sin θ)]
  gauss_legendre_nodes(theta_f, theta1, [&](double theta, double w) {
    const double j = r * ((theta1 - theta) - rho * (sin1 - std::sin(theta)));
    const double sigma = sigma_at(theta);
    arcs.add(w, theta, sigma, janosi_hanamoto(soil, sigma, j));
  });
  // The flat, u = 0…l from its front end: σ = p_g, j = j_f + (1 − v/rω)·u (slip velocity
  // (rω − v) over the tread's rω)
  const double j_front = r * ((theta1 - theta_f) - rho * (sin1 - std::sin(theta_f)));
  double flat_tau = 0.0;  // ∫τ du over the flat
  gauss_legendre_nodes(0.0, flat, [&](double u, double w) {
    flat_tau += w * janosi_hanamoto(soil, tire.p_g, j_front + (1.0 - rho) * u);
  });
  // Rear arc θ_e ≤ θ < −θ_f (c3 > 0): the front law at the equivalent angle
  // θ* = θ1 − (θ − θ_e)/(−θ_f − θ_e)·(θ1 − θ_f) (Wong & Reece 1967's rear region), p_g at the flat
  const double j_rear = j_front + (1.0 - rho) * flat;
  const double sin_rear = std::sin(-theta_f);
  gauss_legendre_nodes(theta_e, -theta_f, [&](double theta, double w) {
    const double equivalent =
        theta1 - (theta - theta_e) / (-theta_f - theta_e) * (theta1 - theta_f);
    const double j = j_rear + r * ((-theta_f - theta) - rho * (sin_rear - std::sin(theta)));
    const double sigma = sigma_at(equivalent);
    arcs.add(w, theta, sigma, janosi_hanamoto(soil, sigma, j));
  });
  // Resultants: the arcs as Wong & Reece (1967); the flat vertical p_g·b·l, horizontal shear,
  // its torque arm the hub's height above it, r − δ_t
  WheelSoilForces& f = out.forces;
  f.W = r * b * (arcs.sigma_cos + arcs.tau_sin) + tire.p_g * b * flat;
  f.thrust = r * b * arcs.tau_cos + b * flat_tau;
  f.resistance = r * b * arcs.sigma_sin;
  f.DP = f.thrust - f.resistance;
  f.torque = r * r * b * arcs.tau + (r - deflection) * b * flat_tau;
  f.theta1 = theta1;
  f.theta_m = 0.0;  // the maximum stress p_g is on the flat, around bottom dead centre
  out.sinkage = z0;
  out.deflection = deflection;
  out.flat_length = flat;
  out.contact_length = r * sin1 + r * std::sin(-theta_e);
  out.flexible = true;
  return out;
}

double flexible_wheel_penetration(const BekkerSoil& soil, const FlexibleTire& tire, double W,
                                  double s) noexcept {
  if (!(W > 0.0) || !soil.valid() || !(tire.r > 0.0)) return 0.0;
  return increasing_root([&](double z) { return flexible_wheel_forces(soil, tire, z, s).forces.W; },
                         W, tire.r, kMaxSinkageIterations);
}

}  // namespace hil::models
