#include "rt_core/executive.hpp"

#include <algorithm>
#include <stdexcept>

namespace hil::rt {

namespace {

void validate(const ExecutiveSpec& config, const std::vector<StageEntry>& stages) {
  if (config.period < kMinPeriod || config.period > kMaxPeriod) {
    throw std::invalid_argument("period " + format_duration(config.period) +
                                " is out of range; expected 50us..100ms");
  }
  const OverrunPolicy& p = config.overrun;
  if (p.kind == OverrunKind::catch_up && p.catch_up_max == 0) {
    throw std::invalid_argument("catch_up policy needs catch_up_max >= 1");
  }
  if (p.kind == OverrunKind::stop_after &&
      (p.stop_after_overruns == 0 || p.stop_after_overruns > kOverrunRecordCapacity ||
       p.stop_after_window_ticks < static_cast<std::int64_t>(p.stop_after_overruns))) {
    throw std::invalid_argument(
        "stop_after policy needs 1 <= overruns <= 1024 and window_ticks >= overruns");
  }
  Phase previous = Phase::read;
  for (const StageEntry& s : stages) {
    if (s.stage == nullptr) throw std::invalid_argument("stage '" + s.name + "' is null");
    if (s.decimation == 0 || s.offset >= s.decimation) {
      throw std::invalid_argument("stage '" + s.name +
                                  "' needs decimation >= 1 and offset < decimation");
    }
    if (s.phase < previous) {
      throw std::invalid_argument("stage '" + s.name + "' runs in the " +
                                  std::string(to_string(s.phase)) + " phase after a stage of the " +
                                  std::string(to_string(previous)) +
                                  " phase: a tick reads, then updates, then writes");
    }
    previous = s.phase;
  }
}

}  // namespace

Executive::Executive(ExecutiveSpec config, std::vector<StageEntry> stages, Clock& clock, RtLog* log)
    : config_(config),
      stages_((validate(config, stages), std::move(stages))),
      dt_s_(stages_.size()),
      stage_exec_(stages_.size(), 0),
      untimed_(stages_.size(), -1),
      next_due_(stages_.size(), 0),
      clock_(clock),
      log_(log),
      stats_(stages_.size()) {
  for (std::size_t i = 0; i < stages_.size(); ++i) {
    next_due_[i] = stages_[i].offset;  // from tick 0
    dt_s_[i] = static_cast<double>(config_.period * stages_[i].decimation) * 1e-9;
  }
}

Nanoseconds Executive::run_stages(std::int64_t tick, Nanoseconds started, bool timed) noexcept {
  Nanoseconds t = started;
  const Nanoseconds time = tick * config_.period;
  for (std::size_t i = 0; i < stages_.size(); ++i) {
    if (tick != next_due_[i]) {
      stage_exec_[i] = -1;  // not due this tick
      continue;
    }
    const StageEntry& s = stages_[i];
    next_due_[i] += s.decimation;
    s.stage->run(
        {.tick = tick, .time = time, .dt = config_.period * s.decimation, .dt_s = dt_s_[i]});
    if (!timed) continue;
    const Nanoseconds now = clock_.now();
    stage_exec_[i] = now - t;
    t = now;
  }
  return t;
}

Nanoseconds Executive::drop_missed(Nanoseconds next, Nanoseconds end,
                                   std::uint32_t& missed) const noexcept {
  const Nanoseconds behind = (end - next) / config_.period + 1;
  missed = static_cast<std::uint32_t>(behind);
  return next + behind * config_.period;
}

bool Executive::overrun_limit_reached(std::int64_t tick) const noexcept {
  const OverrunPolicy& p = config_.overrun;
  const auto nth = stats_.recent_overrun_tick(p.stop_after_overruns - 1);
  return nth.has_value() && *nth > tick - p.stop_after_window_ticks;
}

RunResult Executive::run(std::int64_t max_ticks) noexcept {
  const Nanoseconds period = config_.period;
  const OverrunPolicy& policy = config_.overrun;
  RunResult result{.reason = StopReason::tick_limit, .ticks = next_tick_};
  // The first run starts one period from now; a continued one where it left off, unless that
  // deadline passed while nobody ran the loop (a pause is not an overrun)
  const Nanoseconds start = clock_.now();
  if (next_tick_ == 0 || deadline_ < start) {
    deadline_ = start + period;
    catch_up_streak_ = 0;
    started_late_ = false;
  }
  Nanoseconds deadline = deadline_;
  std::uint32_t catch_up_streak = catch_up_streak_;
  bool started_late = started_late_;
  // Every task_timing_stride-th tick (0, stride, 2·stride, …) times each stage
  const std::int64_t stride = std::max<std::int64_t>(config_.task_timing_stride, 1);

  for (std::int64_t k = next_tick_; max_ticks < 0 || k < max_ticks; ++k) {
    if (stop_.load(std::memory_order_acquire)) {
      result.reason = StopReason::stop_requested;
      break;
    }
    const Nanoseconds woke = clock_.wake_at(deadline);

    const bool timed = k == next_timed_;
    if (timed) next_timed_ += stride;
    const Nanoseconds t = run_stages(k, woke, timed);
    const Nanoseconds end = timed ? t : clock_.now();

    Nanoseconds next = deadline + period;
    TickSample sample{.tick = k,
                      .wake_latency = woke - deadline,
                      .exec = end - woke,
                      .task_exec = timed ? stage_exec_ : untimed_,
                      .overrun = end > next,
                      .late_by = end - next,
                      .missed_periods = 0,
                      .catch_up = started_late};
    started_late = false;
    if (sample.overrun) {
      if (policy.kind == OverrunKind::catch_up && catch_up_streak < policy.catch_up_max) {
        ++catch_up_streak;  // keep `next`: the following tick starts at once, late
        started_late = true;
      } else {
        catch_up_streak = 0;
        next = drop_missed(next, end, sample.missed_periods);
      }
    } else {
      catch_up_streak = 0;
    }
    stats_.record(sample);
    if (sample.overrun && log_ != nullptr) {
      (void)log_->post(RtLogLevel::warn,
                       "overrun at tick {}: work ended {} ns after the next "
                       "deadline, {} periods dropped",
                       k, sample.late_by, sample.missed_periods);
    }
    result.ticks = k + 1;
    next_tick_ = k + 1;
    deadline = next;
    if (sample.overrun && policy.kind == OverrunKind::stop_after && overrun_limit_reached(k)) {
      result.reason = StopReason::overrun_limit;
      break;
    }
  }
  deadline_ = deadline;
  catch_up_streak_ = catch_up_streak;
  started_late_ = started_late;
  return result;
}

}  // namespace hil::rt
