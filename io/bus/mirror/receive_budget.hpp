#pragma once
// The mirror's receive budget per peer (docs/bus.md "Receive budget"): a token bucket that
// lets `per_period` datagrams through per period (the rig's tick) on average and holds
// kBurstPeriods periods' worth, so a backlog that piled up while the mirror thread was not
// scheduled still passes whole, while a flood is cut to the rate. What it refuses the mirror
// drops unparsed and counts (over_budget).
//
// Thread-safety: one thread (the mirror's). No allocation, no system call. Integer
// arithmetic in datagram-nanoseconds: no overflow for per_period ≤ 10^6 and period ≤ 1 s.

#include <algorithm>
#include <cstdint>

namespace hil::io::bus::mirror {

class ReceiveBudget {
 public:
  static constexpr std::uint64_t kBurstPeriods = 4;

  /// Whether one more datagram may pass at `now` (monotonic ns), taking it from the bucket.
  /// The bucket starts full.
  [[nodiscard]] bool take(std::uint64_t now, std::uint32_t per_period,
                          std::uint64_t period_ns) noexcept {
    const std::uint64_t cap = std::uint64_t{per_period} * kBurstPeriods * period_ns;
    if (last_ns_ == 0) tokens_ = cap;
    const std::uint64_t elapsed = std::min(now - last_ns_, kBurstPeriods * period_ns);
    tokens_ = std::min(cap, tokens_ + elapsed * per_period);
    last_ns_ = now;
    if (tokens_ < period_ns) return false;
    tokens_ -= period_ns;
    return true;
  }

 private:
  std::uint64_t last_ns_ = 0;  // the last refill
  std::uint64_t tokens_ = 0;   // datagrams × period_ns still allowed
};

}  // namespace hil::io::bus::mirror
