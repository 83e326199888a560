#include "models/sensors/sensor_noise.hpp"

#include <cmath>
#include <numbers>

#include "models/math/vector_math.hpp"

namespace hil::models {

namespace {

std::uint64_t splitmix64(std::uint64_t z) noexcept {
  z += 0x9E3779B97F4A7C15ULL;
  z = (z ^ (z >> 30U)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27U)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31U);
}

/// Uniform in (0, 1]: 53 random bits, never 0 (log(0) in Box–Muller).
double uniform_open_zero(std::mt19937_64& engine) noexcept {
  return (static_cast<double>(engine() >> 11U) + 1.0) * 0x1.0p-53;
}

}  // namespace

std::uint64_t derive_seed(std::uint64_t master, std::string_view name) noexcept {
  std::uint64_t h = 0xCBF29CE484222325ULL;  // FNV-1a, 64 bit
  for (const char c : name) {
    h ^= static_cast<unsigned char>(c);
    h *= 0x100000001B3ULL;
  }
  return splitmix64(master ^ splitmix64(h));
}

void GaussianNoise::refill() noexcept {
  // Box–Muller: two uniforms (radius, then angle) → two independent normals (cos, sin)
  constexpr std::size_t kPairs = kBatch / 2;
  std::array<double, kPairs> u_radius{};
  std::array<double, kPairs> angle{};
  for (std::size_t j = 0; j < kPairs; ++j) {
    u_radius[j] = uniform_open_zero(engine_);
    angle[j] = 2.0 * std::numbers::pi * uniform_open_zero(engine_);
  }
  for (std::size_t j = 0; j < kPairs; j += 2) {
    const lanes::L2 theta = lanes::make(angle[j], angle[j + 1]);
    const lanes::L2 radius =
        lanes::sqrt(lanes::splat(-2.0) * vmath::log(lanes::make(u_radius[j], u_radius[j + 1])));
    const lanes::L2 c = radius * vmath::cos(theta);
    const lanes::L2 s = radius * vmath::sin(theta);
    batch_[2 * j] = c[0];
    batch_[2 * j + 1] = s[0];
    batch_[2 * j + 2] = c[1];
    batch_[2 * j + 3] = s[1];
  }
  next_ = 0;
}

}  // namespace hil::models
