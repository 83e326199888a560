#include "runtime/scenario/scenario_events.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "runtime/diag/diag_tester.hpp"

namespace hil::runtime {

namespace {

std::int64_t ticks_of(double seconds, rt::Nanoseconds period) {
  return std::llround(seconds * 1e9 / static_cast<double>(period));
}

}  // namespace

ScenarioEvents::ScenarioEvents(const std::vector<config::EventSpec>& events,
                               rt::ChannelTable& table, rt::Nanoseconds period, DiagTester* tester)
    : table_(table), tester_(tester) {
  for (const config::EventSpec& e : events) {
    if (e.uds.empty()) continue;
    if (tester == nullptr) {
      throw std::invalid_argument(
          "a scenario event sends a UDS request, but the rig has no tester "
          "(no diagnostics block)");
    }
    uds_.push_back({.tick = ticks_of(e.at_s, period), .request = e.uds});
  }
  std::stable_sort(uds_.begin(), uds_.end(),
                   [](const UdsEvent& a, const UdsEvent& b) { return a.tick < b.tick; });
  // Group by channel in order of first appearance; within one, by start (stable: the file's
  // order breaks ties, the later event winning from the same tick)
  std::vector<std::string> names;
  for (const config::EventSpec& e : events) {
    if (e.uds.empty() && std::find(names.begin(), names.end(), e.channel) == names.end()) {
      names.push_back(e.channel);
    }
  }
  for (const std::string& name : names) {
    Channel channel{.id = table.resolve(name), .first = steps_.size()};
    for (const config::EventSpec& e : events) {
      if (e.channel != name || !e.uds.empty()) continue;
      steps_.push_back({.start = ticks_of(e.at_s, period),
                        .ramp = ticks_of(e.ramp_s, period),
                        .value = e.value});
    }
    channel.end = steps_.size();
    channel.next = channel.first;
    std::stable_sort(steps_.begin() + static_cast<std::ptrdiff_t>(channel.first), steps_.end(),
                     [](const Step& a, const Step& b) { return a.start < b.start; });
    channels_.push_back(channel);
  }
}

void ScenarioEvents::run(const rt::TickContext& c) noexcept {
  while (next_uds_ < uds_.size() && uds_[next_uds_].tick <= c.tick) {
    (void)tester_->submit(0, uds_[next_uds_].request, false);  // id 0: the scenario's
    ++next_uds_;
    ++started_;
  }
  for (Channel& ch : channels_) {
    // Start every step due by now; the channel's value then is where a ramp starts from
    while (ch.next < ch.end && steps_[ch.next].start <= c.tick) {
      ch.from = table_.get(ch.id);
      ++ch.next;
      ++started_;
    }
    if (ch.next == ch.first) continue;  // nothing started yet: the channel is left alone
    const Step& step = steps_[ch.next - 1];
    const std::int64_t into = c.tick - step.start;
    double value = step.value;
    if (into < step.ramp) {
      const double u = static_cast<double>(into) / static_cast<double>(step.ramp);
      value = ch.from + (step.value - ch.from) * u;
    }
    table_.set(ch.id, value);
  }
}

}  // namespace hil::runtime
