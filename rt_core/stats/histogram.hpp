#pragma once
// Latency histogram: 1 µs bins from 0 to 10 ms, overflow counted, exact min/max/sum.
// Written by one RT thread (no lock, no allocation), read by others through the Seqlock of
// its owner (TimingStats).

#include <array>
#include <atomic>
#include <cstdint>
#include <memory>
#include <vector>

#include "rt_core/time.hpp"

namespace hil::rt {

/// A copied, self-consistent histogram; all figures in microseconds unless named _ns.
struct HistogramSummary {
  std::uint64_t count = 0;
  std::uint64_t overflow = 0;  ///< samples ≥ 10 ms
  Nanoseconds min_ns = 0;
  Nanoseconds max_ns = 0;
  double mean_us = 0.0;
  std::vector<std::uint64_t> bins;  ///< bins[i] counts samples in [i, i+1) µs

  /// The p-quantile (0 < p ≤ 1) in µs, as the lower edge of the bin that holds it (the
  /// convention of cyclictest's histogram); samples in overflow report the exact max.
  [[nodiscard]] double percentile_us(double p) const noexcept;
};

class Histogram {
 public:
  static constexpr std::size_t kBins = 10'000;  // 1 µs each, to 10 ms
  static constexpr Nanoseconds kBinWidth = kMicrosecond;

  /// Setup only: allocates and prefaults the bins.
  Histogram();

  /// Writer only (one thread, inside the owner's Seqlock write section). Wait-free.
  void record(Nanoseconds sample) noexcept;

  /// Reader side, inside the owner's Seqlock read. Allocates.
  void copy_to(HistogramSummary& out) const;

 private:
  std::unique_ptr<std::atomic<std::uint64_t>[]> bins_;
  std::atomic<std::uint64_t> count_{0};
  std::atomic<std::uint64_t> overflow_{0};
  std::atomic<Nanoseconds> min_{0};
  std::atomic<Nanoseconds> max_{0};
  std::atomic<Nanoseconds> sum_{0};
};

}  // namespace hil::rt
