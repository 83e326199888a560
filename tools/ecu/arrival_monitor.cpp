#include "tools/ecu/arrival_monitor.hpp"

#include <cmath>
#include <utility>

namespace hil::ecu {

ArrivalMonitor::ArrivalMonitor(std::unique_ptr<io::can::Transport> inner,
                               std::vector<WatchedMessage> watched)
    : io::can::Transport(std::string(inner->name())),
      inner_(std::move(inner)),
      watched_(std::move(watched)) {
  for (std::size_t i = 0; i < watched_.size(); ++i) tracks_.push_back(std::make_unique<Track>());
}

std::size_t ArrivalMonitor::receive(std::span<io::can::TimedFrame> out,
                                    std::int64_t tick) noexcept {
  const std::size_t n = inner_->receive(out, tick);
  for (std::size_t f = 0; f < n; ++f) {
    const io::can::CanFrame& frame = out[f].frame;
    for (std::size_t i = 0; i < watched_.size(); ++i) {
      if (watched_[i].id != frame.id || watched_[i].extended != frame.extended()) continue;
      Track& t = *tracks_[i];  // one writer: relaxed loads and stores
      const std::int64_t now = out[f].timestamp_ns;
      const std::int64_t last = t.last_ns.load(std::memory_order_relaxed);
      t.last_ns.store(now, std::memory_order_relaxed);
      if (last < 0) break;
      const std::int64_t period = now - last;
      const std::uint64_t count = t.periods.load(std::memory_order_relaxed);
      if (count == 0 || period < t.min_ns.load(std::memory_order_relaxed)) {
        t.min_ns.store(period, std::memory_order_relaxed);
      }
      if (count == 0 || period > t.max_ns.load(std::memory_order_relaxed)) {
        t.max_ns.store(period, std::memory_order_relaxed);
      }
      t.sum_ns.store(t.sum_ns.load(std::memory_order_relaxed) + period, std::memory_order_relaxed);
      t.periods.store(count + 1, std::memory_order_relaxed);
      const auto cycle_ns = static_cast<std::int64_t>(std::llround(watched_[i].cycle_s * 1e9));
      t.deviation.record(std::abs(period - cycle_ns));
      break;
    }
  }
  return n;
}

PeriodStats ArrivalMonitor::periods(std::size_t i) const noexcept {
  const Track& t = *tracks_[i];
  PeriodStats s;
  s.periods = t.periods.load(std::memory_order_relaxed);
  if (s.periods == 0) return s;
  s.mean_s = static_cast<double>(t.sum_ns.load(std::memory_order_relaxed)) * 1e-9 /
             static_cast<double>(s.periods);
  s.min_s = static_cast<double>(t.min_ns.load(std::memory_order_relaxed)) * 1e-9;
  s.max_s = static_cast<double>(t.max_ns.load(std::memory_order_relaxed)) * 1e-9;
  return s;
}

rt::HistogramSummary ArrivalMonitor::deviation(std::size_t i) const {
  rt::HistogramSummary summary;
  tracks_[i]->deviation.copy_to(summary);
  return summary;
}

}  // namespace hil::ecu
