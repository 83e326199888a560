#include "io/can/trace/trace_player.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <utility>

namespace hil::io::can {
namespace {

/// Frames queued without a flush when playing as fast as possible (one cannelloni packet
/// holds ~100 classic frames; a flush per frame would make a datagram of each).
constexpr std::size_t kMaxBatch = 64;

}  // namespace

TracePlayer::TracePlayer(const Trace& trace, std::span<Transport* const> routes, FrameFilter filter,
                         const PlayerSpec& options, rt::Clock& clock)
    : trace_(trace),
      routes_(routes.begin(), routes.end()),
      filter_(std::move(filter)),
      options_(options),
      clock_(clock) {
  if (routes.size() != trace.interfaces().size()) {
    throw std::invalid_argument("TracePlayer: one route per trace interface expected");
  }
  if (!std::isfinite(options.speed) || options.speed < 0) {
    throw std::invalid_argument("TracePlayer: the speed must be finite and not negative");
  }
  std::vector<std::uint16_t> slot_of(routes_.size(), 0);
  for (std::size_t j = 0; j < routes_.size(); ++j) {
    if (routes_[j] == nullptr) continue;
    const auto found = std::ranges::find(transports_, routes_[j]);
    slot_of[j] = static_cast<std::uint16_t>(found - transports_.begin());
    if (found == transports_.end()) transports_.push_back(routes_[j]);
  }
  pending_.assign(transports_.size(), 0);
  refusals_.assign(transports_.size(), {});

  for (std::size_t i = 0; i < trace.size(); ++i) {
    switch (fate_of(i)) {
      case Fate::played:
        plan_.push_back({.record = static_cast<std::uint32_t>(i),
                         .transport = slot_of[trace.record(i).interface]});
        break;
      case Fate::no_route:
        ++no_route_per_loop_;
        break;
      case Fate::filtered:
        ++filtered_per_loop_;
        break;
    }
  }
  if (!plan_.empty()) {
    t0_ = trace.record(plan_.front().record).time_ns;
    rt::Nanoseconds last = t0_;
    for (const Step& s : plan_) last = std::max(last, trace.record(s.record).time_ns);
    loop_period_ = last - t0_ + options.loop_gap;
  }
}

TracePlayer::Fate TracePlayer::fate_of(std::size_t record) const noexcept {
  if (routes_[trace_.record(record).interface] == nullptr) return Fate::no_route;
  return filter_.passes(trace_.frame(record)) ? Fate::played : Fate::filtered;
}

rt::Nanoseconds TracePlayer::deadline_of(std::uint64_t loop, std::size_t step) const noexcept {
  const rt::Nanoseconds offset = static_cast<rt::Nanoseconds>(loop) * loop_period_ +
                                 (trace_.record(plan_[step].record).time_ns - t0_);
  if (options_.speed == 1.0) return offset;
  return static_cast<rt::Nanoseconds>(std::llround(static_cast<double>(offset) / options_.speed));
}

void TracePlayer::flush_pending(std::int64_t tick) noexcept {
  for (std::size_t i = 0; i < transports_.size(); ++i) {
    if (pending_[i] == 0) continue;
    transports_[i]->flush(tick);
    pending_[i] = 0;
  }
}

bool TracePlayer::wait_until(rt::Nanoseconds deadline, std::int64_t tick) noexcept {
  rt::Nanoseconds now = clock_.now();
  if (now < deadline) flush_pending(tick);
  while (now < deadline) {
    if (stop_requested()) return false;
    clock_.sleep_until(std::min(deadline, now + options_.stop_poll));
    now = clock_.now();
  }
  return true;
}

bool TracePlayer::send(const Step& step, std::int64_t tick, PlayCounts& counts) noexcept {
  Transport& transport = *transports_[step.transport];
  const CanFrame frame = trace_.frame(step.record);
  SendStatus status = transport.send(frame, tick);
  pending_[step.transport] = 1;
  if (status == SendStatus::back_pressure) {
    ++refusals_[step.transport].back_pressure;
    const rt::Nanoseconds give_up = clock_.now() + options_.back_pressure_timeout;
    for (;;) {
      transport.flush(tick);  // what it queued may be what fills it
      pending_[step.transport] = 0;
      const rt::Nanoseconds now = clock_.now();
      if (now >= give_up || stop_requested()) break;
      clock_.sleep_until(std::min(give_up, now + options_.back_pressure_retry));
      ++counts.back_pressure_retries;
      status = transport.send(frame, tick);
      pending_[step.transport] = 1;
      if (status != SendStatus::back_pressure) break;
      ++refusals_[step.transport].back_pressure;
    }
  }
  SendRefusals& refused = refusals_[step.transport];
  switch (status) {
    case SendStatus::ok:
      ++counts.sent;
      return true;
    case SendStatus::back_pressure:
      ++counts.back_pressure_gave_up;
      break;
    case SendStatus::unsupported:
      ++counts.unsupported;
      ++refused.unsupported;
      break;
    case SendStatus::failed:
      ++counts.failed;
      ++refused.failed;
      break;
  }
  return false;
}

void TracePlayer::count_skipped(std::uint64_t whole_loops, std::size_t partial_records,
                                PlayCounts& counts) const noexcept {
  counts.no_route += whole_loops * no_route_per_loop_;
  counts.filtered += whole_loops * filtered_per_loop_;
  for (std::size_t i = 0; i < partial_records; ++i) {
    const Fate fate = fate_of(i);
    if (fate == Fate::no_route) ++counts.no_route;
    if (fate == Fate::filtered) ++counts.filtered;
  }
}

PlayCounts TracePlayer::run() noexcept {
  PlayCounts c;
  c.start = clock_.now();
  if (plan_.empty()) {  // nothing routed or nothing passes: one look at the trace is enough
    count_skipped(1, 0, c);
    return c;
  }
  const bool timed = options_.speed > 0;
  const std::uint64_t loops = options_.loops;  // 0: until stopped
  std::int64_t tick = 0;
  std::size_t batched = 0;
  for (std::uint64_t loop = 0; loops == 0 || loop < loops; ++loop) {
    progress_loop_.store(loop, std::memory_order_relaxed);
    for (std::size_t p = 0; p < plan_.size(); ++p) {
      const rt::Nanoseconds deadline = timed ? c.start + deadline_of(loop, p) : 0;
      if (stop_requested() || (timed && !wait_until(deadline, tick))) {
        flush_pending(tick);
        c.stopped = true;
        c.loops_completed = loop;
        count_skipped(loop, plan_[p].record, c);
        return c;
      }
      const bool sent = send(plan_[p], tick, c);
      ++tick;
      rt::Nanoseconds now = clock_.now();
      if (timed) {
        const bool last_frame = p + 1 == plan_.size() && loops != 0 && loop + 1 == loops;
        const rt::Nanoseconds next =
            c.start + (p + 1 < plan_.size() ? deadline_of(loop, p + 1) : deadline_of(loop + 1, 0));
        if (last_frame || next > now) {
          flush_pending(tick);
          now = clock_.now();
        }
      } else if (++batched == kMaxBatch) {
        flush_pending(tick);
        batched = 0;
      }
      if (!sent) continue;
      if (c.sent == 1) {
        c.first_deadline = timed ? deadline : now;
        c.first_sent = now;
      }
      c.last_deadline = timed ? deadline : now;
      c.last_sent = now;
      if (timed) {
        lateness_.record(now - deadline);
        if (now - deadline > options_.late_after) {
          ++c.late;
          progress_late_.store(c.late, std::memory_order_relaxed);
        }
      }
      progress_sent_.store(c.sent, std::memory_order_relaxed);
    }
  }
  flush_pending(tick);
  c.loops_completed = loops;
  count_skipped(loops, 0, c);
  return c;
}

SendRefusals TracePlayer::refusals_of(const Transport& transport) const noexcept {
  const auto found = std::ranges::find(transports_, &transport);
  if (found == transports_.end()) return {};
  return refusals_[static_cast<std::size_t>(found - transports_.begin())];
}

PlayProgress TracePlayer::progress() const noexcept {
  return {.sent = progress_sent_.load(std::memory_order_relaxed),
          .late = progress_late_.load(std::memory_order_relaxed),
          .loop = progress_loop_.load(std::memory_order_relaxed)};
}

rt::HistogramSummary TracePlayer::lateness() const {
  rt::HistogramSummary summary;
  lateness_.copy_to(summary);
  return summary;
}

}  // namespace hil::io::can
