#include "io/console/console_tap.hpp"

#include <bit>
#include <vector>

namespace hil::io::console {

ConsoleTap::ConsoleTap(const rt::ChannelTable& table, std::size_t channels,
                       std::size_t capacity_ticks)
    : table_(table),
      channels_(channels),
      capacity_ticks_(capacity_ticks),
      ring_(capacity_ticks * (channels + 1)) {
  // Touch every page of the ring now, not on the RT thread's first pass through it
  std::vector<double> zeros(4096);
  while (ring_.push(zeros.data(), zeros.size()) > 0) {
  }
  while (ring_.pop(zeros.data(), zeros.size()) > 0) {
  }
}

void ConsoleTap::publish(std::int64_t tick) noexcept {
  table_.publish(tick);
  if (!armed_.load(std::memory_order_relaxed)) return;
  const std::span<const double> values = table_.values();
  if (ring_.write_available() < channels_ + 1) {
    dropped_.fetch_add(1, std::memory_order_relaxed);
    return;
  }
  // The tick travels as the bits of a double: exact for every tick number
  ring_.push(std::bit_cast<double>(tick));
  ring_.push(values.data(), channels_);
}

bool ConsoleTap::pop(std::int64_t& tick, std::span<double> values) noexcept {
  if (ring_.read_available() < channels_ + 1) return false;
  double word = 0.0;
  ring_.pop(word);
  tick = std::bit_cast<std::int64_t>(word);
  ring_.pop(values.data(), channels_);
  return true;
}

}  // namespace hil::io::console
