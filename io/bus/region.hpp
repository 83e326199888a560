#pragma once
// One region of a mapped bus segment: its control line and its two slots, published and read
// through the two-copy latch (rt_core/latch.hpp). A RegionView is a pointer bundle; a
// RegionWriter adds the writer's session and sequence numbers.
//
// Thread-safety: publish from the region's one writer; read from any number of readers, in
// any process. Neither allocates, throws or makes a system call.

#include <atomic>
#include <cstddef>
#include <cstdint>

#include "io/bus/bus_layout.hpp"
#include "rt_core/latch.hpp"

namespace hil::io::bus {

/// A slot as read: its header and values (value_count of them are meaningful).
struct RegionSnapshot {
  SlotHeader head{};
  double values[kMaxRegionValues]{};
};

class RegionView {
 public:
  RegionView() = default;
  /// Over region `d` of a segment mapped at `base` (offsets already bounds-checked).
  RegionView(std::byte* base, const RegionDescriptor& d) noexcept;

  [[nodiscard]] bool valid() const noexcept { return control_ != nullptr; }
  [[nodiscard]] std::uint32_t value_count() const noexcept { return n_; }
  [[nodiscard]] RegionControl& control() const noexcept { return *control_; }

  /// Writer: publishes `head` (value_count set to value_count()) and `values`; bumps the
  /// control line's notify word and heartbeat. `between` as LatchView::write.
  template <class Between>
  void publish(SlotHeader head, const double* values, Between&& between) noexcept;
  void publish(const SlotHeader& head, const double* values) noexcept {
    publish(head, values, [](int) noexcept {});
  }

  /// Writer, before the first publish of a new writer (session): repairs what an earlier
  /// writer killed mid-publish left (LatchView::recover). Without it that writer's torn copy
  /// is what the next publish's first step shows readers.
  void recover() noexcept { latch_.recover(); }

  /// Reader: the latest complete slot, at most `max_tries` latch tries.
  rt::LatchRead read(RegionSnapshot& out, unsigned max_tries) const noexcept;
  /// Reader: the latch counter (changes with every publish).
  [[nodiscard]] std::uint64_t sequence() const noexcept { return latch_.sequence(); }

 private:
  RegionControl* control_ = nullptr;
  rt::LatchView latch_;
  std::uint32_t n_ = 0;
};

/// A region's writer: a session id and the region sequence within it.
class RegionWriter {
 public:
  RegionWriter() = default;
  RegionWriter(RegionView view, std::uint64_t session) noexcept : view_(view), session_(session) {}

  /// Publishes `values` (value_count() of them) as the next snapshot of this session.
  void publish(const double* values, std::int64_t tick, std::uint64_t mono_ns,
               SlotStatus status = SlotStatus::valid, std::uint64_t source_age_ns = 0) noexcept {
    publish(values, tick, mono_ns, status, source_age_ns, [](int) noexcept {});
  }
  template <class Between>
  void publish(const double* values, std::int64_t tick, std::uint64_t mono_ns, SlotStatus status,
               std::uint64_t source_age_ns, Between&& between) noexcept {
    view_.publish({.region_seq = ++seq_,
                   .tick = tick,
                   .publish_mono_ns = mono_ns,
                   .session_id = session_,
                   .status = static_cast<std::uint64_t>(status),
                   .value_count = view_.value_count(),
                   .source_age_ns = source_age_ns,
                   .reserved = 0},
                  values, between);
  }

  [[nodiscard]] const RegionView& view() const noexcept { return view_; }
  [[nodiscard]] std::uint64_t session() const noexcept { return session_; }
  [[nodiscard]] std::uint64_t last_seq() const noexcept { return seq_; }

 private:
  RegionView view_;
  std::uint64_t session_ = 0;
  std::uint64_t seq_ = 0;
};

template <class Between>
void RegionView::publish(SlotHeader head, const double* values, Between&& between) noexcept {
  head.value_count = n_;
  std::uint64_t words[kSlotHeaderWords + kMaxRegionValues];
  static_assert(sizeof(SlotHeader) == kSlotHeaderWords * 8);
  __builtin_memcpy(words, &head, sizeof(SlotHeader));
  __builtin_memcpy(words + kSlotHeaderWords, values, 8 * n_);
  latch_.write(words, kSlotHeaderWords + n_, between);
  std::atomic_ref<std::uint64_t>(control_->session_id)
      .store(head.session_id, std::memory_order_relaxed);
  std::atomic_ref<std::uint64_t>(control_->writer_heartbeat_mono_ns)
      .store(head.publish_mono_ns, std::memory_order_relaxed);
  std::atomic_ref<std::uint32_t>(control_->notify_word).fetch_add(1, std::memory_order_release);
}

}  // namespace hil::io::bus
