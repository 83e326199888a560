#pragma once
// A bounded ring of rows from the RT thread to one non-RT thread (DESIGN.md §3): each row a
// tick and a fixed number of values — a channel table's, a tick at a time — for the
// telemetry recorder and the console's tap. Full: the producer drops the row and counts it;
// it never waits. Over boost::lockfree::spsc_queue<double>: the tick travels as the bits of a
// double (exact for every tick), and a row is pushed and popped whole, so the consumer never
// sees a tick without its values.
//
// Thread-safety: try_push and write_available on the producer (RT) thread only; try_pop and
// rows_available on the consumer thread only; dropped() from any thread.

#include <atomic>
#include <bit>
#include <boost/lockfree/spsc_queue.hpp>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace hil::rt {

class RowRing {
 public:
  /// Setup only: room for `capacity` rows of `width` values, every page touched now rather
  /// than on the RT thread's first pass through it.
  RowRing(std::size_t width, std::size_t capacity)
      : width_(width), capacity_(capacity), queue_(capacity * (width + 1)) {
    std::vector<double> zeros(4096);
    while (queue_.push(zeros.data(), zeros.size()) > 0) {
    }
    while (queue_.pop(zeros.data(), zeros.size()) > 0) {
    }
  }

  /// Producer: the row of `tick`; false (and counted) when full or `values` is not a row.
  /// Wait-free, no allocation.
  [[nodiscard]] bool try_push(std::int64_t tick, std::span<const double> values) noexcept {
    if (values.size() != width_ || !has_room()) {
      dropped_.fetch_add(1, std::memory_order_relaxed);  // a statistic: no ordering needed
      return false;
    }
    // One producer: the room checked above cannot shrink before these two pushes
    (void)queue_.push(std::bit_cast<double>(tick));
    (void)queue_.push(values.data(), values.size());
    return true;
  }
  /// Producer: whether a row fits now.
  [[nodiscard]] bool has_room() const noexcept { return queue_.write_available() >= width_ + 1; }
  /// Producer: rows that fit now.
  [[nodiscard]] std::size_t rows_free() const noexcept {
    return queue_.write_available() / (width_ + 1);
  }

  /// Consumer: the oldest row into `tick` and `values` (size width()); false when empty.
  bool try_pop(std::int64_t& tick, std::span<double> values) noexcept {
    if (queue_.read_available() < width_ + 1) return false;
    double word = 0.0;
    (void)queue_.pop(word);
    tick = std::bit_cast<std::int64_t>(word);
    (void)queue_.pop(values.data(), width_);
    return true;
  }
  /// Consumer: rows queued now.
  [[nodiscard]] std::size_t rows_available() const noexcept {
    return queue_.read_available() / (width_ + 1);
  }

  /// Any thread: rows dropped because the ring was full (or a row of the wrong width).
  [[nodiscard]] std::uint64_t dropped() const noexcept {
    return dropped_.load(std::memory_order_relaxed);
  }
  [[nodiscard]] std::size_t width() const noexcept { return width_; }
  [[nodiscard]] std::size_t capacity() const noexcept { return capacity_; }

 private:
  std::size_t width_;
  std::size_t capacity_;
  boost::lockfree::spsc_queue<double> queue_;
  std::atomic<std::uint64_t> dropped_{0};
};

}  // namespace hil::rt
