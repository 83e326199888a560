#include "rt_core/stats/timing_stats.hpp"

#include <algorithm>

namespace hil::rt {

namespace {
template <class T>
void add(std::atomic<T>& a, T by) noexcept {  // single writer
  seqlock_store(a, writer_load(a) + by);
}
}  // namespace

TimingStats::TimingStats(std::size_t task_count) : task_exec_(task_count) {}

void TimingStats::record(const TickSample& s) noexcept {
  seqlock_.begin_write();
  wake_latency_.record(s.wake_latency);
  exec_time_.record(s.exec);
  const std::size_t tasks = std::min(s.task_exec.size(), task_exec_.size());
  for (std::size_t i = 0; i < tasks; ++i) {
    if (s.task_exec[i] >= 0) task_exec_[i].record(s.task_exec[i]);
  }
  if (s.overrun) {
    const std::uint64_t n = writer_load(overruns_);
    seqlock_store(overrun_tick_[n % kOverrunRecordCapacity], s.tick);
    seqlock_store(overrun_late_[n % kOverrunRecordCapacity], s.late_by);
    seqlock_store(overruns_, n + 1);
  }
  add(missed_periods_, std::uint64_t{s.missed_periods});
  if (s.catch_up) add(catch_up_ticks_, std::uint64_t{1});
  seqlock_store(ticks_, s.tick + 1);
  seqlock_.end_write();
}

std::optional<std::int64_t> TimingStats::recent_overrun_tick(std::uint32_t n) const noexcept {
  const std::uint64_t total = writer_load(overruns_);
  if (n >= total || n >= kOverrunRecordCapacity) return std::nullopt;
  return writer_load(overrun_tick_[(total - 1 - n) % kOverrunRecordCapacity]);
}

std::optional<std::int64_t> TimingStats::last_overrun_tick() const noexcept {
  // the tick is stored before the count grows (record()); acquire pairs with that order
  const std::uint64_t total = overruns_.load(std::memory_order_acquire);
  if (total == 0) return std::nullopt;
  return overrun_tick_[(total - 1) % kOverrunRecordCapacity].load(std::memory_order_relaxed);
}

TimingSnapshot TimingStats::snapshot() const {
  TimingSnapshot out;
  out.task_exec_time.resize(task_exec_.size());
  out.recent_overruns.reserve(kOverrunRecordCapacity);
  seqlock_.read([&] {
    out.ticks = seqlock_load(ticks_);
    out.overruns = seqlock_load(overruns_);
    out.missed_periods = seqlock_load(missed_periods_);
    out.catch_up_ticks = seqlock_load(catch_up_ticks_);
    wake_latency_.copy_to(out.wake_latency);
    exec_time_.copy_to(out.exec_time);
    for (std::size_t i = 0; i < task_exec_.size(); ++i)
      task_exec_[i].copy_to(out.task_exec_time[i]);
    out.recent_overruns.clear();
    const std::uint64_t kept = std::min<std::uint64_t>(out.overruns, kOverrunRecordCapacity);
    for (std::uint64_t i = out.overruns - kept; i < out.overruns; ++i) {
      out.recent_overruns.push_back({seqlock_load(overrun_tick_[i % kOverrunRecordCapacity]),
                                     seqlock_load(overrun_late_[i % kOverrunRecordCapacity])});
    }
  });
  return out;
}

}  // namespace hil::rt
