#include "rt_core/stats/histogram.hpp"

#include <algorithm>
#include <cmath>

#include "rt_core/seqlock.hpp"

namespace hil::rt {

namespace {
// Single writer: load + store is an increment nobody else can interleave with.
template <class T>
void bump(std::atomic<T>& a, T by = 1) noexcept {
  seqlock_store(a, writer_load(a) + by);
}
}  // namespace

Histogram::Histogram() : bins_(std::make_unique<std::atomic<std::uint64_t>[]>(kBins)) {
  for (std::size_t i = 0; i < kBins; ++i) seqlock_store(bins_[i], std::uint64_t{0});
}

void Histogram::record(Nanoseconds sample) noexcept {
  sample = std::max<Nanoseconds>(sample, 0);
  const auto bin = static_cast<std::size_t>(sample / kBinWidth);
  if (bin < kBins) {
    bump(bins_[bin]);
  } else {
    bump(overflow_);
  }
  const std::uint64_t n = writer_load(count_);
  if (n == 0 || sample < writer_load(min_)) seqlock_store(min_, sample);
  if (n == 0 || sample > writer_load(max_)) seqlock_store(max_, sample);
  bump(sum_, sample);
  seqlock_store(count_, n + 1);
}

void Histogram::copy_to(HistogramSummary& out) const {
  out.bins.resize(kBins);
  for (std::size_t i = 0; i < kBins; ++i) out.bins[i] = seqlock_load(bins_[i]);
  out.count = seqlock_load(count_);
  out.overflow = seqlock_load(overflow_);
  out.min_ns = seqlock_load(min_);
  out.max_ns = seqlock_load(max_);
  const Nanoseconds sum = seqlock_load(sum_);
  out.mean_us = out.count == 0 ? 0.0
                               : static_cast<double>(sum) / static_cast<double>(out.count) /
                                     static_cast<double>(kBinWidth);
}

double HistogramSummary::percentile_us(double p) const noexcept {
  if (count == 0) return 0.0;
  // Smallest rank r (1-based) with r ≥ p·count.
  const auto rank =
      static_cast<std::uint64_t>(std::max(1.0, std::ceil(p * static_cast<double>(count) - 1e-9)));
  std::uint64_t seen = 0;
  for (std::size_t i = 0; i < bins.size(); ++i) {
    seen += bins[i];
    if (seen >= rank) return static_cast<double>(i);
  }
  return static_cast<double>(max_ns) / static_cast<double>(kMicrosecond);
}

}  // namespace hil::rt
