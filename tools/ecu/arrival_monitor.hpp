#pragma once
// A CAN transport wrapped to time what arrives (`hilsim ecu`'s check of the rig's frames):
// for each watched message (id, nominal cycle) the receive timestamps give the periods
// between frames — count, mean, min, max — and a histogram of their deviation from the
// cycle. Everything else passes straight through to the wrapped transport, whose counters
// stay the transport's own (inner()).
//
// Thread-safety: as Transport (one polling thread). periods() from any thread (relaxed
// atomics: each figure is exact, a set of them is not a snapshot); deviation() after the
// polling thread is done.

#include <array>
#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "io/can/transport/transport.hpp"
#include "rt_core/stats/histogram.hpp"

namespace hil::ecu {

struct WatchedMessage {
  std::string name;
  std::uint32_t id = 0;
  bool extended = false;
  double cycle_s = 0.0;  ///< nominal period [s]
};

/// Periods of one message, as plain numbers.
struct PeriodStats {
  std::uint64_t periods = 0;  ///< frame-to-frame intervals measured
  double mean_s = 0.0, min_s = 0.0, max_s = 0.0;
};

class ArrivalMonitor final : public io::can::Transport {
 public:
  /// Setup: takes over `inner`; sizes one histogram per watched message.
  ArrivalMonitor(std::unique_ptr<io::can::Transport> inner, std::vector<WatchedMessage> watched);

  [[nodiscard]] std::size_t receive(std::span<io::can::TimedFrame> out,
                                    std::int64_t tick) noexcept override;
  [[nodiscard]] io::can::SendStatus send(const io::can::CanFrame& frame,
                                         std::int64_t tick) noexcept override {
    return inner_->send(frame, tick);
  }
  void flush(std::int64_t tick) noexcept override { inner_->flush(tick); }

  [[nodiscard]] const io::can::Transport& inner() const noexcept { return *inner_; }
  [[nodiscard]] const std::vector<WatchedMessage>& watched() const noexcept { return watched_; }
  /// Any thread.
  [[nodiscard]] PeriodStats periods(std::size_t i) const noexcept;
  /// |period − cycle| of message i: count, percentiles. After the polling thread is done.
  [[nodiscard]] rt::HistogramSummary deviation(std::size_t i) const;

 private:
  struct Track {
    std::atomic<std::int64_t> last_ns{-1};
    std::atomic<std::uint64_t> periods{0};
    std::atomic<std::int64_t> sum_ns{0}, min_ns{0}, max_ns{0};
    rt::Histogram deviation;
  };

  std::unique_ptr<io::can::Transport> inner_;
  std::vector<WatchedMessage> watched_;
  std::vector<std::unique_ptr<Track>> tracks_;
};

}  // namespace hil::ecu
