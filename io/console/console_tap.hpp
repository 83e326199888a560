#pragma once
// The console's only work on the RT thread (docs/console.md "Threads and cost"): publish(), a
// stage in the tick's `publish` slot. It publishes the channel snapshot that the console's requests
// read (status, read, wait_for: rt::ChannelTable::read_snapshot()); a run without a console has no
// reader and does not copy its values each tick. While no client subscribes that is all, plus
// one relaxed atomic load; while armed it also copies the tick number and every channel value
// into a lock-free ring sized at setup (rt_core/row_ring.hpp; full: the tick is dropped and
// counted).
//
// Thread-safety: publish() on the RT thread; arm()/pop()/dropped() on one console thread.

#include <atomic>
#include <cstdint>
#include <span>

#include "rt_core/channel_table.hpp"
#include "rt_core/row_ring.hpp"

namespace hil::io::console {

class ConsoleTap {
 public:
  /// Setup: room for `capacity_ticks` ticks of `table` (frozen or not: sized on its count;
  /// frozen before the first write(), which publishes its snapshot).
  ConsoleTap(const rt::ChannelTable& table, std::size_t channels, std::size_t capacity_ticks);

  /// RT, the publish slot (write phase): the snapshot of tick `tick`, and the tick into the
  /// ring while armed.
  void publish(std::int64_t tick) noexcept;

  /// Console thread: start or stop copying ticks.
  void arm(bool on) noexcept { armed_.store(on, std::memory_order_relaxed); }
  [[nodiscard]] bool armed() const noexcept { return armed_.load(std::memory_order_relaxed); }
  /// Console thread: the oldest tick in the ring into `values` (size: channels()); false when
  /// empty.
  bool pop(std::int64_t& tick, std::span<double> values) noexcept;
  /// Any thread: ticks dropped because the ring was full.
  [[nodiscard]] std::uint64_t dropped() const noexcept { return ring_.dropped(); }
  [[nodiscard]] std::size_t channels() const noexcept { return ring_.width(); }
  /// Ticks the ring holds when full.
  [[nodiscard]] std::size_t capacity_ticks() const noexcept { return ring_.capacity(); }

 private:
  const rt::ChannelTable& table_;
  rt::RowRing ring_;
  std::atomic<bool> armed_{false};
};

}  // namespace hil::io::console
