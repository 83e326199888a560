#pragma once
// Bounded single-producer/single-consumer ring from the RT thread to a non-RT thread.
// When full, the producer drops the item and counts it: it never waits (DESIGN.md §3).

#include <atomic>
#include <boost/lockfree/spsc_queue.hpp>
#include <cstdint>
#include <type_traits>

namespace hil::rt {

template <class T>
class SpscRing {
  static_assert(std::is_trivially_copyable_v<T>, "items cross threads by copy");

 public:
  /// Setup only: allocates room for `capacity` items.
  explicit SpscRing(std::size_t capacity) : queue_(capacity) {}

  /// Producer thread only. Wait-free, no allocation. False (and counted) when full.
  [[nodiscard]] bool try_push(const T& item) noexcept {
    if (queue_.push(item)) return true;
    dropped_.fetch_add(1, std::memory_order_relaxed);  // a statistic: no ordering needed
    return false;
  }

  /// Producer thread only: how many items a push would take now.
  [[nodiscard]] std::size_t write_available() const noexcept { return queue_.write_available(); }

  /// Consumer thread only.
  [[nodiscard]] bool try_pop(T& item) noexcept { return queue_.pop(item); }

  /// Consumer thread only: hands every queued item to `consume`; returns how many.
  template <class Consume>
  std::size_t drain(Consume&& consume) {
    return queue_.consume_all(consume);
  }

  /// Any thread.
  [[nodiscard]] std::uint64_t dropped() const noexcept {
    return dropped_.load(std::memory_order_relaxed);
  }

 private:
  boost::lockfree::spsc_queue<T> queue_;
  std::atomic<std::uint64_t> dropped_{0};
};

}  // namespace hil::rt
