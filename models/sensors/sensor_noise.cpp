#include "models/sensors/sensor_noise.hpp"

#include <cmath>
#include <numbers>

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

double GaussianNoise::standard() noexcept {
  if (has_spare_) {
    has_spare_ = false;
    return spare_;
  }
  // Box–Muller: two uniforms → two independent normals
  const double radius = std::sqrt(-2.0 * std::log(uniform_open_zero(engine_)));
  const double angle = 2.0 * std::numbers::pi * uniform_open_zero(engine_);
  spare_ = radius * std::sin(angle);
  has_spare_ = true;
  return radius * std::cos(angle);
}

}  // namespace hil::models
