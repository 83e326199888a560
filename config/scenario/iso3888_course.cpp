#include "config/scenario/iso3888_course.hpp"

#include <algorithm>
#include <cmath>

namespace hil::config {

namespace {

/// Quintic step 10u³ − 15u⁴ + 6u⁵: 0 → 1 with zero slope and curvature at both ends.
double smooth_step(double u) noexcept { return u * u * u * (10.0 + u * (-15.0 + 6.0 * u)); }

}  // namespace

std::array<double, 3> iso3888_1_lane_widths(double b) noexcept {
  // ISO 3888-1:1999 Table 1: sections 1, 3, 5
  return {1.1 * b + 0.25, 1.2 * b + 0.25, 1.3 * b + 0.25};
}

Iso3888Course iso3888_1_course(const Iso3888Spec& p) {
  const std::array<double, 3> w = iso3888_1_lane_widths(p.vehicle_width);
  const std::array<double, 5>& L = kIso3888SectionLengths;
  // Section starts along x
  std::array<double, 6> x{};
  x[0] = p.approach;
  for (std::size_t i = 0; i < 5; ++i) x[i + 1] = x[i] + L[i];
  // Lanes for a change to the left: section 1 centred on the start line; sections 1 and 5
  // share their right-hand edge; section 3's right-hand edge lies lane_offset to the left
  // of it (docs/ecu.md "ISO 3888-1")
  const double right_edge = -0.5 * w[0];
  const double side = p.left ? 1.0 : -1.0;
  const auto lane = [&](const char* name, double x_min, double x_max, double lo, double hi) {
    const double a = side * lo;
    const double b = side * hi;
    return CourseLane{.name = name,
                      .x_min = x_min,
                      .x_max = x_max,
                      .y_min = std::min(a, b),
                      .y_max = std::max(a, b)};
  };
  Iso3888Course course;
  course.lanes = {
      lane("section 1", x[0], x[1], right_edge, right_edge + w[0]),
      lane("section 3", x[2], x[3], right_edge + p.lane_offset, right_edge + p.lane_offset + w[1]),
      lane("section 5", x[4], x[5], right_edge, right_edge + w[2])};
  course.length = x[5] + p.exit;

  const double c1 = 0.0;
  const double c3 = side * (right_edge + p.lane_offset + 0.5 * w[1]);
  const double c5 = side * (right_edge + 0.5 * w[2]);
  const auto centre = [&](double s) {
    if (s <= x[1]) return c1;
    if (s < x[2]) return c1 + (c3 - c1) * smooth_step((s - x[1]) / L[1]);
    if (s <= x[3]) return c3;
    if (s < x[4]) return c3 + (c5 - c3) * smooth_step((s - x[3]) / L[3]);
    return c5;
  };
  const auto n = static_cast<std::size_t>(std::ceil(course.length / p.spacing));
  course.path.reserve(n + 1);
  for (std::size_t i = 0; i <= n; ++i) {
    const double s = std::min(course.length, static_cast<double>(i) * p.spacing);
    course.path.push_back({.x = s, .y = centre(s)});
  }
  return course;
}

}  // namespace hil::config
