#include "io/console/sample_history.hpp"

#include <algorithm>
#include <stdexcept>

namespace hil::io::console {

SampleHistory::SampleHistory(std::size_t channels, std::uint32_t stride, std::size_t capacity)
    : channels_(channels),
      stride_(stride),
      capacity_(capacity),
      rows_(capacity * 3 * channels),
      ticks_(capacity),
      walls_(capacity),
      low_(channels),
      high_(channels) {
  if (stride == 0 || capacity == 0) {
    throw std::invalid_argument("console history: stride and capacity must be > 0");
  }
}

namespace {
// NaN-aware: a NaN anywhere in the span is what the envelope shows (it is news)
double lower(double a, double b) noexcept { return (b < a || b != b) ? b : a; }
double higher(double a, double b) noexcept { return (b > a || b != b) ? b : a; }
}  // namespace

bool SampleHistory::add_tick(std::int64_t tick, std::span<const double> values, double wall_ms) {
  // The sample of tick k (k mod stride == 0) covers the ticks (k − stride, k]
  const std::int64_t first_of_sample = tick - ((tick + stride_ - 1) % stride_);
  if (envelope_start_ != first_of_sample) {
    std::copy_n(values.begin(), channels_, low_.begin());
    std::copy_n(values.begin(), channels_, high_.begin());
    envelope_start_ = first_of_sample;
  } else {
    for (std::size_t c = 0; c < channels_; ++c) {
      low_[c] = lower(low_[c], values[c]);
      high_[c] = higher(high_[c], values[c]);
    }
  }
  if (tick % stride_ != 0) return false;
  const std::size_t s = slot(end_);
  double* out = rows_.data() + s * 3 * channels_;
  std::copy_n(values.begin(), channels_, out);
  std::copy(low_.begin(), low_.end(), out + channels_);
  std::copy(high_.begin(), high_.end(), out + 2 * channels_);
  ticks_[s] = tick;
  walls_[s] = wall_ms;
  ++end_;
  envelope_start_ = -1;
  return true;
}

std::uint64_t SampleHistory::seq_at_or_after(std::int64_t tick) const noexcept {
  std::uint64_t lo = first_seq();
  std::uint64_t hi = end_;
  while (lo < hi) {  // ticks increase with seq
    const std::uint64_t mid = lo + (hi - lo) / 2;
    if (ticks_[slot(mid)] < tick) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  return lo;
}

void SampleHistory::clear() noexcept {
  end_ = 0;
  envelope_start_ = -1;
}

}  // namespace hil::io::console
