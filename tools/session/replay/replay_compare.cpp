#include "tools/session/replay/replay_compare.hpp"

#include <fmt/format.h>
#include <fnmatch.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <fstream>
#include <limits>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "io/can/trace/candump_frame.hpp"

namespace hil::session {

std::unique_ptr<io::can::Transport> FrameChecker::transport(std::size_t /*bus*/,
                                                            const std::string& name) {
  const auto it = log_.received.find(name);
  std::vector<io::can::TickFrame> received =
      it == log_.received.end() ? std::vector<io::can::TickFrame>{} : it->second;
  next_[name] = 0;
  return std::make_unique<io::can::ReplayTransport>(
      "replay:" + name, std::move(received),
      [this, name](std::int64_t tick, const io::can::CanFrame& f) { check(name, tick, f); });
}

namespace {

std::string frame_text(const io::can::CanFrame& f) {
  std::array<char, io::can::kMaxFrameTextLength> text{};
  const std::size_t n = io::can::format_frame_text(f, text);
  return {text.data(), n};
}

}  // namespace

void FrameChecker::check(const std::string& bus, std::int64_t tick, const io::can::CanFrame& f) {
  static const std::vector<io::can::TickFrame> kNone;
  const auto it = log_.sent.find(bus);
  const std::vector<io::can::TickFrame>& expected = it == log_.sent.end() ? kNone : it->second;
  std::size_t& next = next_[bus];
  while (next < expected.size() && expected[next].tick < tick) {  // recorded, never produced
    ++result_.frames_missing;
    result_.note({.tick = expected[next].tick,
                  .what = fmt::format("frame on {}", bus),
                  .expected = frame_text(expected[next].frame),
                  .got = "nothing"});
    ++next;
  }
  ++result_.frames_compared;
  if (next >= expected.size() || expected[next].tick != tick) {
    ++result_.frames_extra;
    result_.note({.tick = tick,
                  .what = fmt::format("frame on {}", bus),
                  .expected = "nothing",
                  .got = frame_text(f)});
    return;
  }
  if (!(expected[next].frame == f)) {
    ++result_.frames_differing;
    result_.note({.tick = tick,
                  .what = fmt::format("frame on {}", bus),
                  .expected = frame_text(expected[next].frame),
                  .got = frame_text(f)});
  }
  ++next;
}

void FrameChecker::finish(std::int64_t last_tick) {
  for (const auto& [bus, expected] : log_.sent) {
    std::size_t& next = next_[bus];
    for (; next < expected.size() && expected[next].tick <= last_tick; ++next) {
      ++result_.frames_missing;
      result_.note({.tick = expected[next].tick,
                    .what = fmt::format("frame on {}", bus),
                    .expected = frame_text(expected[next].frame),
                    .got = "nothing"});
    }
  }
}

double ChannelDeviation::relative() const noexcept {
  if (largest == 0.0) return 0.0;
  return magnitude > 0.0 ? largest / magnitude : std::numeric_limits<double>::infinity();
}

bool Comparison::within_tolerance() const noexcept {
  if (identical()) return true;
  if (!tolerance || !frames_identical()) return false;
  return std::ranges::all_of(deviations, [&](const ChannelDeviation& d) {
    return d.ignored || d.relative() <= *tolerance;
  });
}

std::size_t DeviationTracker::add_column(std::string channel) {
  columns_.push_back({.deviation = {.channel = std::move(channel)}});
  magnitude_.push_back(0.0);
  return columns_.size() - 1;
}

void DeviationTracker::differs(Column& c, std::int64_t tick, double expected, double got) noexcept {
  double deviation = std::abs(got - expected);
  if (std::isnan(got) && std::isnan(expected)) deviation = 0.0;  // NaN payloads aside
  if (std::isnan(deviation)) deviation = std::numeric_limits<double>::infinity();
  ChannelDeviation& d = c.deviation;
  if (!c.differs || deviation > d.largest) {
    c.differs = true;
    d.largest = deviation;
    d.tick = tick;
    d.expected = expected;
    d.got = got;
  }
}

std::vector<ChannelDeviation> DeviationTracker::result(
    const std::vector<std::string>& ignore) const {
  std::vector<ChannelDeviation> out;
  for (std::size_t i = 0; i < columns_.size(); ++i) {
    const Column& c = columns_[i];
    if (!c.differs) continue;
    out.push_back(c.deviation);
    out.back().magnitude = magnitude_[i];
    out.back().ignored = std::ranges::any_of(ignore, [&](const std::string& pattern) {
      return fnmatch(pattern.c_str(), c.deviation.channel.c_str(), 0) == 0;
    });
  }
  // The judged ones first, largest relative deviation first
  std::ranges::stable_sort(out, [](const ChannelDeviation& a, const ChannelDeviation& b) {
    if (a.ignored != b.ignored) return b.ignored;
    return a.relative() > b.relative();
  });
  return out;
}

namespace {

std::string deviation_lines(const Comparison& c, std::int64_t period_ns, std::size_t count) {
  std::string text;
  for (std::size_t i = 0; i < c.deviations.size() && i < count; ++i) {
    const ChannelDeviation& d = c.deviations[i];
    text +=
        fmt::format("    {}: {:.3g} ({:.3g} of its largest value {:.6g}) at {:.4f} s{}\n",
                    d.channel, d.largest, d.relative(), d.magnitude,
                    static_cast<double>(d.tick * period_ns) * 1e-9, d.ignored ? " (ignored)" : "");
  }
  if (c.deviations.size() > count) {
    text += fmt::format("    … {} more channels differ (--report lists them all)\n",
                        c.deviations.size() - count);
  }
  return text;
}

}  // namespace

std::string describe(const Comparison& c, std::int64_t period_ns) {
  const std::string counts = fmt::format(
      "  frames: {} compared, {} differ, {} missing, {} extra\n"
      "  samples: {} compared ({} values), {} values differ\n"
      "  {} ticks replayed{} in {:.2f} s: {:.0f}x real time\n",
      c.frames_compared, c.frames_differing, c.frames_missing, c.frames_extra, c.samples_compared,
      c.values_compared, c.values_differing, c.ticks,
      c.truncated ? " (the recording was cut short: compared up to its last flush)" : "", c.wall_s,
      c.wall_s > 0 ? static_cast<double>(c.ticks * period_ns) * 1e-9 / c.wall_s : 0.0);
  if (c.identical()) {
    return fmt::format("identical: {} frames, {} samples\n", c.frames_compared,
                       c.samples_compared) +
           counts;
  }
  const std::string largest =
      c.deviations.empty()
          ? std::string()
          : "  largest deviations (relative to the channel's largest recorded value):\n" +
                deviation_lines(c, period_ns, 5);
  if (c.within_tolerance()) {
    return fmt::format("within tolerance {:g}: {} frames identical, {} of {} values differ\n",
                       *c.tolerance, c.frames_compared, c.values_differing, c.values_compared) +
           largest + counts;
  }
  const Divergence& d = *c.first;
  return fmt::format("DIVERGED at tick {} ({:.4f} s): {}: expected {}, got {}\n", d.tick,
                     static_cast<double>(d.tick * period_ns) * 1e-9, d.what, d.expected, d.got) +
         (c.tolerance ? fmt::format("  beyond the tolerance {:g}\n", *c.tolerance) : "") + largest +
         counts;
}

nlohmann::json to_json(const Comparison& c, std::int64_t period_ns) {
  nlohmann::json j = {{"identical", c.identical()},
                      {"ticks", c.ticks},
                      {"wall_s", c.wall_s},
                      {"frames_compared", c.frames_compared},
                      {"frames_differing", c.frames_differing},
                      {"frames_missing", c.frames_missing},
                      {"frames_extra", c.frames_extra},
                      {"samples_compared", c.samples_compared},
                      {"values_compared", c.values_compared},
                      {"values_differing", c.values_differing},
                      {"truncated", c.truncated},
                      {"within_tolerance", c.within_tolerance()}};
  if (c.tolerance) j["tolerance"] = *c.tolerance;
  if (!c.ignore.empty()) j["ignore"] = c.ignore;
  nlohmann::json deviations = nlohmann::json::array();
  for (const ChannelDeviation& d : c.deviations) {
    deviations.push_back({{"channel", d.channel},
                          {"largest", d.largest},
                          {"relative", d.relative()},
                          {"magnitude", d.magnitude},
                          {"tick", d.tick},
                          {"time_s", static_cast<double>(d.tick * period_ns) * 1e-9},
                          {"expected", d.expected},
                          {"got", d.got},
                          {"ignored", d.ignored}});
  }
  j["deviations"] = std::move(deviations);
  if (c.first) {
    j["first_divergence"] = {{"tick", c.first->tick},
                             {"time_s", static_cast<double>(c.first->tick * period_ns) * 1e-9},
                             {"what", c.first->what},
                             {"expected", c.first->expected},
                             {"got", c.first->got}};
  }
  return j;
}

}  // namespace hil::session
