#include "tools/ecu/diag/dtc_monitor.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace hil::ecu::diag {

using Kind = config::MonitorSpec::Kind;

DtcMonitor::DtcMonitor(const config::MonitorSpec& spec, const io::can::CanBus& bus,
                       const rt::ChannelTable& table)
    : kind_(spec.kind), bus_(bus), table_(table), value_(spec.value), min_value_(spec.min_value) {
  if (kind_ == Kind::message_timeout || kind_ == Kind::message_errors) {
    while (rx_ < bus.rx_count() && bus.rx_name(rx_) != spec.message) ++rx_;
    if (rx_ == bus.rx_count()) {
      throw std::invalid_argument(fmt::format(
          "DTC monitor: the ECU does not receive message {} on {}", spec.message, bus.name()));
    }
    if (kind_ == Kind::message_timeout) {
      missing_ = table.find(io::can::message_channel(bus.name(), spec.message, "timeout"));
      if (!missing_) {
        throw std::invalid_argument(
            fmt::format("DTC monitor: {} has no timeout on {}", spec.message, bus.name()));
      }
    }
    return;
  }
  for (const std::string& name : spec.channels) {
    const std::optional<rt::ChannelId> id = table.find(name);
    if (!id)
      throw std::invalid_argument(fmt::format("DTC monitor: the ECU has no channel {}", name));
    channels_.push_back(*id);
  }
}

TestResult DtcMonitor::test() noexcept {
  switch (kind_) {
    case Kind::message_timeout:
      return table_.get(*missing_) > 0.5 ? TestResult::failed : TestResult::passed;
    case Kind::message_errors: {
      const io::can::MessageCounters& c = bus_.rx_counters(rx_);
      const std::uint64_t frames = c.frames.load(std::memory_order_relaxed);
      const std::uint64_t errors = c.errors.load(std::memory_order_relaxed);
      const bool refused = errors != errors_;
      const bool good = frames != frames_;
      frames_ = frames;
      errors_ = errors;
      if (refused) return TestResult::failed;
      return good ? TestResult::passed : TestResult::not_tested;
    }
    case Kind::above:
    case Kind::below: {
      const double v = table_.get(channels_.front());
      if (std::isnan(v)) return TestResult::not_tested;
      return (kind_ == Kind::above ? v > value_ : v < value_) ? TestResult::failed
                                                              : TestResult::passed;
    }
    case Kind::plausibility: {
      double lo = table_.get(channels_.front());
      double hi = lo;
      for (const rt::ChannelId id : channels_) {
        const double v = table_.get(id);
        if (std::isnan(v)) return TestResult::not_tested;
        lo = std::min(lo, v);
        hi = std::max(hi, v);
      }
      if (std::max(std::abs(lo), std::abs(hi)) < min_value_) return TestResult::not_tested;
      return hi - lo > value_ ? TestResult::failed : TestResult::passed;
    }
  }
  return TestResult::not_tested;
}

}  // namespace hil::ecu::diag
