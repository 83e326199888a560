#include "io/can/transport/rx_budget.hpp"

#include <algorithm>
#include <cmath>

namespace hil::io::can {

double bus_frames_per_period(double period_s, std::uint32_t bit_rate) noexcept {
  return period_s * static_cast<double>(bit_rate) / kMinFrameBits;
}

std::size_t default_rx_frames_per_tick(double period_s, std::optional<std::uint32_t> bit_rate,
                                       std::optional<std::uint32_t> data_bit_rate) noexcept {
  const std::uint32_t fastest = data_bit_rate.value_or(bit_rate.value_or(kFastestBitRate));
  const double frames = 2.0 * bus_frames_per_period(period_s, fastest);
  return static_cast<std::size_t>(
      std::clamp(std::ceil(frames - 1e-9), 1.0, static_cast<double>(kMaxRxFramesPerTick)));
}

}  // namespace hil::io::can
