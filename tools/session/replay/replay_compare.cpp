#include "tools/session/replay/replay_compare.hpp"

#include <fmt/format.h>

#include <array>
#include <cmath>
#include <fstream>
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
  return std::string(text.data(), n);
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
  const Divergence& d = *c.first;
  return fmt::format("DIVERGED at tick {} ({:.4f} s): {}: expected {}, got {}\n", d.tick,
                     static_cast<double>(d.tick * period_ns) * 1e-9, d.what, d.expected, d.got) +
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
                      {"truncated", c.truncated}};
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
