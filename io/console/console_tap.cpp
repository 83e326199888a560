#include "io/console/console_tap.hpp"

namespace hil::io::console {

ConsoleTap::ConsoleTap(const rt::ChannelTable& table, std::size_t channels,
                       std::size_t capacity_ticks)
    : table_(table), ring_(channels, capacity_ticks) {}

void ConsoleTap::publish(std::int64_t tick) noexcept {
  table_.publish(tick);
  if (!armed_.load(std::memory_order_relaxed)) return;
  (void)ring_.try_push(tick, table_.values().first(ring_.width()));
}

bool ConsoleTap::pop(std::int64_t& tick, std::span<double> values) noexcept {
  return ring_.try_pop(tick, values);
}

}  // namespace hil::io::console
