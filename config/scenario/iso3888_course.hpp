#pragma once
// The ISO 3888-1:1999 double lane change course ("severe lane-change manoeuvre, part 1"):
// five sections of 15, 30, 25, 25 and 15 m; coned lanes in sections 1, 3 and 5 of width
// 1.1·b + 0.25, 1.2·b + 0.25 and 1.3·b + 0.25 m (b: the vehicle width); the lane of
// section 3 moved sideways by the lane offset, 3.5 m. docs/ecu.md "ISO 3888-1" lists the
// table and how we read the offset. Pure geometry in the course frame (x along the start
// heading, y to its left); setup phase (allocates); thread-safe.

#include <array>
#include <string>
#include <vector>

namespace hil::config {

struct CoursePoint {
  double x = 0.0;
  double y = 0.0;
};

/// A coned lane: where it is and how wide, in the course frame [m].
struct CourseLane {
  std::string name;  ///< "section 1", "section 3", "section 5"
  double x_min = 0.0, x_max = 0.0, y_min = 0.0, y_max = 0.0;
};

struct Iso3888Spec {
  double vehicle_width = 1.8;  ///< b [m], > 0
  double lane_offset = 3.5;  ///< between the right-hand (left turn) lane edges of sections 1 and 3
  double approach = 20.0;    ///< straight before section 1 [m], ≥ 0
  double exit = 20.0;        ///< straight after section 5 [m], ≥ 0
  bool left = true;          ///< the lane change goes to the left (mirrored otherwise)
  double spacing = 0.25;     ///< distance between the path's points [m], > 0
};

/// Section lengths of the standard's table [m].
inline constexpr std::array<double, 5> kIso3888SectionLengths{15.0, 30.0, 25.0, 25.0, 15.0};

struct Iso3888Course {
  /// Centreline the vehicle follows: the lane centres of sections 1, 3 and 5, joined over
  /// sections 2 and 4 by quintic transitions (zero slope and curvature at both ends).
  std::vector<CoursePoint> path;
  std::array<CourseLane, 3> lanes;
  double length = 0.0;  ///< approach + 110 m + exit
};

[[nodiscard]] Iso3888Course iso3888_1_course(const Iso3888Spec& p);

/// The lane widths of sections 1, 3 and 5 for a vehicle `b` wide [m].
[[nodiscard]] std::array<double, 3> iso3888_1_lane_widths(double b) noexcept;

}  // namespace hil::config
