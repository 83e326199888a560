#include "io/can/transport/virtual_bus.hpp"

#include <algorithm>
#include <array>
#include <atomic>
#include <boost/lockfree/queue.hpp>
#include <map>
#include <mutex>
#include <stdexcept>
#include <vector>

#include "rt_core/clock.hpp"

namespace hil::io::can {
namespace detail {

using FrameQueue = boost::lockfree::queue<TimedFrame, boost::lockfree::fixed_sized<true>>;

/// One endpoint's place on the bus. Its queue is never freed while the bus lives, so a sender
/// that read `attached` just before a detach pushes into valid memory (the frame is discarded
/// at the next attach).
struct Slot {
  std::atomic<bool> attached{false};        // release on attach/detach, acquire by senders
  std::atomic<FrameQueue*> queue{nullptr};  // published before `attached` (release)
  std::atomic<std::uint64_t> overflow{0};   // frames lost to a full queue; many writers
  std::size_t capacity = 0;                 // guarded by VirtualBus::mutex
};

class VirtualBus {
 public:
  /// Setup phase. Returns the slot index.
  std::size_t attach(std::size_t capacity) {
    const std::lock_guard lock(mutex_);
    for (std::size_t i = 0; i < slots_.size(); ++i) {
      Slot& slot = slots_[i];
      if (slot.attached.load(std::memory_order_relaxed)) continue;
      FrameQueue* queue = slot.queue.load(std::memory_order_relaxed);
      if (queue == nullptr || slot.capacity != capacity) {
        queues_.push_back(std::make_unique<FrameQueue>(capacity));
        queue = queues_.back().get();
        slot.capacity = capacity;
        slot.queue.store(queue, std::memory_order_release);
      }
      TimedFrame stale;
      while (queue->pop(stale)) {
      }  // left by a previous owner, or pushed by a sender racing its detach
      slot.attached.store(true, std::memory_order_release);
      return i;
    }
    throw std::runtime_error("virtual CAN bus already has " + std::to_string(kMaxVirtualEndpoints) +
                             " endpoints");
  }

  /// Setup phase.
  void detach(std::size_t index) {
    const std::lock_guard lock(mutex_);
    slots_[index].attached.store(false, std::memory_order_release);
  }

  [[nodiscard]] Slot& slot(std::size_t index) noexcept { return slots_[index]; }
  [[nodiscard]] std::array<Slot, kMaxVirtualEndpoints>& slots() noexcept { return slots_; }

 private:
  std::mutex mutex_;  // attach/detach only; never taken on the polling path
  std::array<Slot, kMaxVirtualEndpoints> slots_;
  std::vector<std::unique_ptr<FrameQueue>> queues_;  // every queue ever made, freed with the bus
};

namespace {

/// Buses by name; a bus lives while an endpoint holds it.
std::shared_ptr<VirtualBus> find_or_create_bus(std::string_view name) {
  static std::mutex mutex;
  static std::map<std::string, std::weak_ptr<VirtualBus>, std::less<>> buses;
  const std::lock_guard lock(mutex);
  for (auto it = buses.begin(); it != buses.end();) {  // forget buses nobody holds
    it = it->second.expired() ? buses.erase(it) : std::next(it);
  }
  std::weak_ptr<VirtualBus>& entry = buses[std::string(name)];
  std::shared_ptr<VirtualBus> bus = entry.lock();
  if (!bus) {
    bus = std::make_shared<VirtualBus>();
    entry = bus;
  }
  return bus;
}

}  // namespace
}  // namespace detail

VirtualTransport::VirtualTransport(std::string uri, std::string_view bus_name,
                                   const VirtualSpec& options)
    : Transport(std::move(uri)), queue_frames_(options.queue_frames) {
  if (options.queue_frames == 0 || options.queue_frames > kMaxVirtualQueueFrames) {
    throw std::invalid_argument(std::string(name()) + ": queue of " +
                                std::to_string(options.queue_frames) + " frames; expected 1.." +
                                std::to_string(kMaxVirtualQueueFrames));
  }
  bus_ = detail::find_or_create_bus(bus_name);
  try {
    slot_ = bus_->attach(options.queue_frames);
  } catch (const std::runtime_error& e) {
    throw std::runtime_error(std::string(name()) + ": " + e.what());
  }
  overflow_seen_ = bus_->slot(slot_).overflow.load(std::memory_order_relaxed);
}

VirtualTransport::~VirtualTransport() { bus_->detach(slot_); }

std::size_t VirtualTransport::receive(std::span<TimedFrame> out, std::int64_t tick) noexcept {
  detail::Slot& slot = bus_->slot(slot_);
  detail::FrameQueue& queue = *slot.queue.load(std::memory_order_relaxed);  // ours: no race
  out = out.first(std::min(out.size(), budget_.allowance(tick)));
  std::size_t n = 0;
  std::uint64_t bytes = 0;
  while (n < out.size() && queue.pop(out[n])) {
    bytes += carried_bytes(out[n].frame);
    ++n;
  }
  counters_.received(n, bytes, tick);
  budget_.handed(n);
  if (budget_.shed_now()) {  // past the budget: drop what the queue holds now, at most its size
    TimedFrame discarded;
    std::uint64_t shed = 0;
    while (shed < queue_frames_ && queue.pop(discarded)) ++shed;
    counters_.drop(DropReason::over_budget, shed);
  }
  // Statistics only: relaxed, the count is monotonic.
  const std::uint64_t overflow = slot.overflow.load(std::memory_order_relaxed);
  counters_.drop(DropReason::queue_full, overflow - overflow_seen_);
  overflow_seen_ = overflow;
  return n;
}

SendStatus VirtualTransport::send(const CanFrame& frame, std::int64_t tick) noexcept {
  if (!is_valid(frame)) {
    counters_.drop(DropReason::unsupported);
    return SendStatus::unsupported;
  }
  const TimedFrame timed{.frame = frame, .timestamp_ns = rt::MonotonicClock().now()};
  std::uint64_t missed = 0;
  auto& slots = bus_->slots();
  for (std::size_t i = 0; i < slots.size(); ++i) {
    detail::Slot& slot = slots[i];
    // Acquire pairs with attach()'s release: the queue pointer is visible once attached is.
    if (i == slot_ || !slot.attached.load(std::memory_order_acquire)) continue;
    if (!slot.queue.load(std::memory_order_acquire)->bounded_push(timed)) {
      slot.overflow.fetch_add(1, std::memory_order_relaxed);  // a statistic, many writers
      ++missed;
    }
  }
  counters_.sent(1, carried_bytes(frame), tick);
  if (missed == 0) return SendStatus::ok;
  counters_.drop(DropReason::peer_queue_full, missed);
  return SendStatus::back_pressure;
}

void VirtualTransport::flush(std::int64_t /*tick*/) noexcept {}

}  // namespace hil::io::can
