#include "models/sensors/gnss.hpp"

#include <cmath>

namespace hil::models {

Gnss::Gnss(const GnssParams& params, std::uint64_t seed) noexcept
    : params_(params), origin_(params.origin), noise_(seed) {}

const GnssFix& Gnss::update(double t, const Eigen::Vector3d& position_enu,
                            const Eigen::Vector3d& velocity_enu) noexcept {
  // Epochs at k / rate: compared as t·rate ≥ k so that 10 Hz at 250 µs lands on every
  // 400th tick exactly (with a half-tick tolerance against rounding of t)
  const double epoch = t * params_.rate_hz + 1e-9;
  if (epoch < static_cast<double>(next_epoch_)) return fix_;
  next_epoch_ = static_cast<std::int64_t>(std::floor(epoch)) + 1;
  const Eigen::Vector3d noisy_position =
      position_enu + Eigen::Vector3d(noise_(params_.horizontal_noise),
                                     noise_(params_.horizontal_noise),
                                     noise_(params_.vertical_noise));
  fix_.position = origin_.to_geodetic(noisy_position);
  fix_.velocity_enu =
      velocity_enu + Eigen::Vector3d(noise_(params_.velocity_noise), noise_(params_.velocity_noise),
                                     noise_(params_.velocity_noise));
  ++fix_.count;
  return fix_;
}

}  // namespace hil::models
