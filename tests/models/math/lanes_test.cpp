// lanes: each helper gives, per lane, the bits of its std:: namesake (NaN, ±0 and ±∞ included),
// and the vector kernels give the bits of their pair calls.

#include "models/math/lanes.hpp"

#include <gtest/gtest.h>

#include <Eigen/Geometry>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <initializer_list>
#include <limits>
#include <random>
#include <utility>
#include <vector>

#include "models/math/vec3_lanes.hpp"
#include "models/math/vector_math.hpp"

namespace hil::lanes {
namespace {

std::uint64_t bits(double v) { return std::bit_cast<std::uint64_t>(v); }

const std::vector<double>& values() {
  static const std::vector<double> v{0.0,
                                     -0.0,
                                     1.0,
                                     -2.5,
                                     1e-300,
                                     -1e300,
                                     std::numeric_limits<double>::infinity(),
                                     -std::numeric_limits<double>::infinity(),
                                     std::numeric_limits<double>::quiet_NaN(),
                                     -std::numeric_limits<double>::quiet_NaN()};
  return v;
}

TEST(Lanes, ChooseAsTheirStdNamesakesDoBitForBit) {
  for (const double a : values()) {
    for (const double b : values()) {
      const L2 x = make(a, b);
      const L2 y = make(b, a);
      for (int lane = 0; lane < 2; ++lane) {
        const double p = lane == 0 ? a : b;
        const double q = lane == 0 ? b : a;
        EXPECT_EQ(bits(max(x, y)[lane]), bits(std::max(p, q))) << p << ", " << q;
        EXPECT_EQ(bits(min(x, y)[lane]), bits(std::min(p, q))) << p << ", " << q;
        EXPECT_EQ(bits(abs(x)[lane]), bits(std::abs(p))) << p;
        EXPECT_EQ(bits(sqrt(x)[lane]), bits(std::sqrt(p))) << p;
        EXPECT_EQ(bits(select(x < y, x, y)[lane]), bits(p < q ? p : q)) << p << ", " << q;
        const double lo = -1.0;
        const double hi = 1.0;
        EXPECT_EQ(bits(clamp(x, splat(lo), splat(hi))[lane]), bits(std::clamp(p, lo, hi))) << p;
      }
    }
  }
}

TEST(Lanes, EachLaneOfAKernelCallIsThatValueAlone) {
  // One tire and a pair of tires give the same bits: a lane does not depend on the other
  for (const double a : {0.3, -7.0, 1e-9, 40.0}) {
    const L2 x = make(a, -0.5 * a);
    for (const auto& [name, f] :
         std::initializer_list<std::pair<const char*, L2 (*)(L2) noexcept>>{{"atan", vmath::atan},
                                                                            {"sin", vmath::sin},
                                                                            {"tan", vmath::tan},
                                                                            {"exp", vmath::exp},
                                                                            {"cos", vmath::cos}}) {
      EXPECT_EQ(bits(f(x)[0]), bits(f(make(a, 0.0))[0])) << name << "(" << a << ")";
      EXPECT_EQ(bits(f(x)[1]), bits(f(make(-0.5 * a, 0.0))[0])) << name << "(" << -0.5 * a << ")";
    }
    EXPECT_EQ(bits(vmath::log(make(std::abs(a), 2.0))[0]),
              bits(vmath::log(make(std::abs(a), 0.5))[0]));
    EXPECT_NEAR(vmath::exp(x)[1], std::exp(-0.5 * a), 1e-15 * std::exp(-0.5 * a));
  }
}

TEST(Vec3Lanes, EachLaneHasTheBitsOfTheEigenExpression) {
  // The wheels' frames rely on it: Eigen (without vectorisation, as the project builds it)
  // sums a 3-vector x + (y + z); a change of Eigen's order fails here, not in a replay
  std::mt19937_64 engine(11);
  std::uniform_real_distribution<double> u(-10.0, 10.0);
  const auto vec = [&] { return Eigen::Vector3d(u(engine), u(engine), u(engine)); };
  const auto same = [](const Eigen::Vector3d& a, const Eigen::Vector3d& b) {
    return bits(a.x()) == bits(b.x()) && bits(a.y()) == bits(b.y()) && bits(a.z()) == bits(b.z());
  };
  int differing = 0;
  for (int i = 0; i < 20'000; ++i) {
    const Eigen::Vector3d a0 = vec();
    const Eigen::Vector3d a1 = vec();
    const Eigen::Vector3d b0 = vec();
    const Eigen::Vector3d b1 = i % 100 == 0 ? Eigen::Vector3d::Zero() : vec();  // |b1| = 0 too
    Eigen::Matrix3d m;
    m << u(engine), u(engine), u(engine), u(engine), u(engine), u(engine), u(engine), u(engine),
        u(engine);
    const Vec3 a = Vec3::of(a0, a1);
    const Vec3 b = Vec3::of(b0, b1);
    const L2 d = dot(a, b);
    differing += bits(d[0]) != bits(a0.dot(b0)) || bits(d[1]) != bits(a1.dot(b1));
    differing += !same(cross(a, b).lane(1), a1.cross(b1));
    differing += !same(normalized(b).lane(1), b1.normalized());
    differing += !same(times(m, a).lane(0), m * a0);
    differing += !same((a - d * b).lane(1), a1 - a1.dot(b1) * b1);
  }
  EXPECT_EQ(differing, 0);
}

}  // namespace
}  // namespace hil::lanes
