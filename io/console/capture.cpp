#include "io/console/capture.hpp"

#include <algorithm>
#include <utility>

namespace hil::io::console {

Capture::Capture(CaptureSpec spec) : spec_(std::move(spec)) {
  spec_.decimation = std::max<std::uint32_t>(1, spec_.decimation);
  const auto pre = static_cast<std::size_t>(std::max<std::int64_t>(0, spec_.pre_ticks));
  pre_.resize(pre * spec_.channels.size());
  pre_ticks_.resize(pre);
  rows_.reserve(std::size_t{kBlockSamples} * spec_.channels.size());
}

void Capture::add_tick(std::int64_t tick, std::span<const double> row) {
  if (state_ == State::done) return;
  if (last_tick_ >= 0 && tick > last_tick_ + 1) {  // the tap lost ticks
    if (state_ == State::recording) {
      const std::int64_t dec = spec_.decimation;
      // grid samples k (tick = trigger + k·dec) strictly between the two ticks
      const auto grid_index = [&](std::int64_t t) {  // the number of grid ticks ≤ t
        const std::int64_t d = t - trigger_tick_;
        return d >= 0 ? d / dec : -((-d + dec - 1) / dec);
      };
      note_lost(static_cast<std::uint64_t>(grid_index(tick - 1) - grid_index(last_tick_)));
      flush();
    } else {
      pre_count_ = 0;
      start_was_.reset();  // an edge across a gap is not seen
    }
  }
  last_tick_ = tick;
  if (state_ == State::armed) {
    if (!fires(spec_.start, start_was_, tick, row)) {
      if (!pre_ticks_.empty()) {  // keep it for the pre-trigger
        for (std::size_t c = 0; c < spec_.channels.size(); ++c) {
          pre_[pre_next_ * spec_.channels.size() + c] = row[spec_.channels[c]];
        }
        pre_ticks_[pre_next_] = tick;
        pre_next_ = (pre_next_ + 1) % pre_ticks_.size();
        pre_count_ = std::min(pre_count_ + 1, pre_ticks_.size());
      }
      return;
    }
    begin_shot(tick);
    append(tick, row);
  } else if ((tick - trigger_tick_) % spec_.decimation == 0) {
    append(tick, row);
  }
  if (stop_fires(tick, row)) {
    const bool duration =
        spec_.duration_ticks > 0 && tick - trigger_tick_ + 1 >= spec_.duration_ticks;
    end_shot(tick, duration
                       ? "duration"
                       : (spec_.stop->kind == CaptureTrigger::Kind::tick ? "tick" : "condition"));
  }
}

bool Capture::fires(const CaptureTrigger& t, std::optional<bool>& was, std::int64_t tick,
                    std::span<const double> row) {
  switch (t.kind) {
    case CaptureTrigger::Kind::now:
      return true;
    case CaptureTrigger::Kind::tick:
      return tick >= t.tick;
    case CaptureTrigger::Kind::condition: {
      const bool holds = t.condition->holds(row);
      const bool before = was.value_or(true);  // the first tick seen cannot be an edge
      was = holds;
      return holds && (!t.edge || !before);
    }
  }
  return false;
}

bool Capture::stop_fires(std::int64_t tick, std::span<const double> row) {
  if (spec_.duration_ticks > 0 && tick - trigger_tick_ + 1 >= spec_.duration_ticks) return true;
  return spec_.stop && fires(*spec_.stop, stop_was_, tick, row);
}

void Capture::begin_shot(std::int64_t trigger_tick) {
  state_ = State::recording;
  trigger_tick_ = trigger_tick;
  shot_samples_ = shot_lost_ = 0;
  stop_was_.reset();
  // the pre-trigger samples on the shot's grid, oldest first
  const std::size_t held = pre_count_;
  const std::size_t oldest =
      (pre_next_ + pre_ticks_.size() - held) % std::max<std::size_t>(1, pre_ticks_.size());
  std::int64_t first = trigger_tick;
  for (std::size_t i = 0; i < held; ++i) {
    const std::size_t slot = (oldest + i) % pre_ticks_.size();
    if ((trigger_tick - pre_ticks_[slot]) % spec_.decimation == 0) {
      first = std::min(first, pre_ticks_[slot]);
    }
  }
  shot_first_ = first;
  out_.push_back({.notice = CaptureNotice{.kind = CaptureNotice::Kind::triggered,
                                          .shot = shot_,
                                          .tick = trigger_tick,
                                          .first_tick = first}});
  for (std::size_t i = 0; i < held; ++i) {
    const std::size_t slot = (oldest + i) % pre_ticks_.size();
    if ((trigger_tick - pre_ticks_[slot]) % spec_.decimation != 0) continue;
    append_selected(pre_ticks_[slot], pre_.data() + slot * spec_.channels.size());
  }
  pre_count_ = 0;
}

void Capture::append(std::int64_t tick, std::span<const double> row) {
  start_sample(tick);
  for (const std::uint32_t c : spec_.channels) rows_.push_back(row[c]);
  finish_sample();
}

void Capture::append_selected(std::int64_t tick, const double* selected) {
  start_sample(tick);
  rows_.insert(rows_.end(), selected, selected + spec_.channels.size());
  finish_sample();
}

void Capture::start_sample(std::int64_t tick) {
  if (block_samples_ > 0 && tick != block_last_ + spec_.decimation) flush();  // a gap: cut
  if (block_samples_ == 0) block_first_ = tick;
  block_last_ = tick;
}

void Capture::finish_sample() {
  ++shot_samples_;
  if (++block_samples_ == kBlockSamples) flush();
}

void Capture::flush() {
  if (block_samples_ == 0) return;
  const std::size_t channels = spec_.channels.size();
  CaptureBlock b{.shot = shot_, .first_tick = block_first_, .samples = block_samples_};
  b.values.resize(rows_.size());
  for (std::size_t i = 0; i < block_samples_; ++i) {  // row-major → channel-major
    for (std::size_t c = 0; c < channels; ++c)
      b.values[c * block_samples_ + i] = rows_[i * channels + c];
  }
  out_.push_back({.block = std::move(b)});
  rows_.clear();
  block_samples_ = 0;
}

void Capture::end_shot(std::int64_t last_tick, const std::string& reason) {
  flush();
  out_.push_back({.notice = CaptureNotice{.kind = CaptureNotice::Kind::ended,
                                          .shot = shot_,
                                          .tick = last_tick,
                                          .first_tick = shot_first_,
                                          .samples = shot_samples_,
                                          .lost = shot_lost_,
                                          .reason = reason}});
  ++shot_;
  if (spec_.repeat && reason != "cancelled" && reason != "run ended") {
    state_ = State::armed;
    start_was_.reset();
    pre_count_ = 0;
    return;
  }
  state_ = State::done;
}

void Capture::end(const std::string& reason) {
  if (state_ == State::done) return;
  if (state_ == State::recording) {
    end_shot(last_tick_, reason);
  } else {  // armed: a shot that never started
    out_.push_back({.notice = CaptureNotice{.kind = CaptureNotice::Kind::ended,
                                            .shot = shot_,
                                            .tick = last_tick_,
                                            .first_tick = -1,
                                            .reason = reason}});
  }
  state_ = State::done;
}

}  // namespace hil::io::console
