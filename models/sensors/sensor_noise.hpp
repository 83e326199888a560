#pragma once
// Seeded Gaussian noise for the sensor models (DESIGN.md §4: random numbers come from
// per-sensor generators seeded from the rig's master seed). The engine is std::mt19937_64,
// whose output sequence the C++ standard fixes, and the normal deviates come from our own
// Box–Muller transform, computed four pairs at a time with glibc's vector kernels
// (models/math/vector_math.hpp), so the same seed gives the same noise with any standard
// library on the same glibc. One generator per sensor; a generator is used by one thread
// only (the RT thread).

#include <array>
#include <cstddef>
#include <cstdint>
#include <random>
#include <string_view>

namespace hil::models {

/// Seed of the generator named `name` (e.g. "imu", "gnss") from the rig's master seed:
/// FNV-1a of the name mixed with the master seed by SplitMix64. Stable across builds.
[[nodiscard]] std::uint64_t derive_seed(std::uint64_t master, std::string_view name) noexcept;

class GaussianNoise {
 public:
  explicit GaussianNoise(std::uint64_t seed) noexcept : engine_(seed) {}

  /// A standard normal deviate N(0, 1). No allocation.
  [[nodiscard]] double standard() noexcept {
    if (next_ == kBatch) refill();
    return batch_[next_++];
  }
  /// σ·N(0, 1); exactly 0 (and no draw) when σ = 0, so noise-free runs stay noise-free.
  [[nodiscard]] double operator()(double sigma) noexcept {
    return sigma == 0.0 ? 0.0 : sigma * standard();
  }

 private:
  /// Deviates drawn ahead: four Box–Muller pairs, each pair's cos then sin deviate.
  static constexpr std::size_t kBatch = 8;
  void refill() noexcept;

  std::mt19937_64 engine_;
  std::array<double, kBatch> batch_{};
  std::size_t next_ = kBatch;
};

}  // namespace hil::models
