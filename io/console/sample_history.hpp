#pragma once
// The console's memory of the run (docs/console.md): ticks taken off the tap become console
// samples, one every `stride` ticks (the ticks k with k mod stride == 0, as the recorder's),
// each holding every channel's value at that tick and its minimum and maximum over the
// `stride` ticks it stands for, so a one-tick spike survives decimation. The last `capacity`
// samples are kept; a sample is found by its sequence number (0, 1, … in arrival order).
//
// Thread-safety: one thread (the console's).

#include <cstdint>
#include <span>
#include <vector>

namespace hil::io::console {

class SampleHistory {
 public:
  /// Setup: `channels` per sample, one sample per `stride` ticks, `capacity` samples kept.
  SampleHistory(std::size_t channels, std::uint32_t stride, std::size_t capacity);

  /// Takes one tick's values (ticks in increasing order, gaps allowed); returns true when it
  /// completed a sample.
  bool add_tick(std::int64_t tick, std::span<const double> values, double wall_ms);

  /// Sequence numbers held: [first_seq(), end_seq()).
  [[nodiscard]] std::uint64_t first_seq() const noexcept {
    return end_ > capacity_ ? end_ - capacity_ : 0;
  }
  [[nodiscard]] std::uint64_t end_seq() const noexcept { return end_; }
  [[nodiscard]] std::int64_t tick(std::uint64_t seq) const noexcept { return ticks_[slot(seq)]; }
  [[nodiscard]] double wall_ms(std::uint64_t seq) const noexcept { return walls_[slot(seq)]; }
  /// Every channel's value at the sample's tick (the whole table, by channel index).
  [[nodiscard]] std::span<const double> values(std::uint64_t seq) const noexcept {
    return row(seq, 0);
  }
  [[nodiscard]] std::span<const double> minima(std::uint64_t seq) const noexcept {
    return row(seq, 1);
  }
  [[nodiscard]] std::span<const double> maxima(std::uint64_t seq) const noexcept {
    return row(seq, 2);
  }
  /// The first held sequence number whose tick is ≥ `tick` (end_seq() when none).
  [[nodiscard]] std::uint64_t seq_at_or_after(std::int64_t tick) const noexcept;

  [[nodiscard]] std::uint32_t stride() const noexcept { return stride_; }
  [[nodiscard]] std::size_t channels() const noexcept { return channels_; }
  [[nodiscard]] std::size_t capacity() const noexcept { return capacity_; }
  /// Forgets every sample and the envelope in progress (a new run).
  void clear() noexcept;

 private:
  [[nodiscard]] std::size_t slot(std::uint64_t seq) const noexcept { return seq % capacity_; }
  [[nodiscard]] std::span<const double> row(std::uint64_t seq, std::size_t part) const noexcept {
    return {rows_.data() + slot(seq) * 3 * channels_ + part * channels_, channels_};
  }

  std::size_t channels_;
  std::uint32_t stride_;
  std::size_t capacity_;
  std::vector<double> rows_;  // per slot: values, minima, maxima
  std::vector<std::int64_t> ticks_;
  std::vector<double> walls_;
  std::uint64_t end_ = 0;
  // the envelope of the sample in progress
  std::vector<double> low_, high_;
  std::int64_t envelope_start_ = -1;  // first tick of the sample in progress, −1: none
};

}  // namespace hil::io::console
