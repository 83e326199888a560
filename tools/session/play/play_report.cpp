#include "tools/session/play/play_report.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <nlohmann/json.hpp>
#include <utility>

namespace hil::session {
namespace {

double to_us(rt::Nanoseconds ns) { return static_cast<double>(ns) / 1e3; }
double to_s(rt::Nanoseconds ns) { return static_cast<double>(ns) / 1e9; }

std::string loops_text(const PlayReport& r) {
  const std::uint64_t done = r.counts.loops_completed;
  if (r.loops_requested == 0) {
    return fmt::format("{} whole loops of {} frames, looping until stopped", done,
                       r.frames_per_loop);
  }
  return fmt::format("{} of {} loops of {} frames", done, r.loops_requested, r.frames_per_loop);
}

}  // namespace

TransportDrops after_send_drops(std::string uri, const io::can::TransportStats& before,
                                const io::can::TransportStats& after,
                                const io::can::SendRefusals& refused) {
  using io::can::DropReason;
  TransportDrops drops{.uri = std::move(uri)};
  const auto add = [&](DropReason reason, std::uint64_t reported) {
    const std::uint64_t grew = after.drop_count(reason) - before.drop_count(reason);
    if (grew <= reported) return;
    drops.frames += grew - reported;
    drops.reasons += fmt::format("{}{} {}", drops.reasons.empty() ? "" : ", ",
                                 io::can::to_string(reason), grew - reported);
  };
  add(DropReason::back_pressure, refused.back_pressure);
  add(DropReason::send_failed, refused.failed);
  return drops;
}

std::uint64_t PlayReport::lost() const noexcept {
  std::uint64_t n = counts.not_sent();
  for (const TransportDrops& d : transport_drops) n += d.frames;
  return n;
}

std::string format_play_summary(const PlayReport& r) {
  const io::can::PlayCounts& c = r.counts;
  std::string s;
  auto out = std::back_inserter(s);
  fmt::format_to(out, "{} {} frames ({}) in {:.6f} s\n",
                 c.stopped ? "stopped by a signal: sent" : "sent", c.sent, loops_text(r),
                 to_s(c.last_sent - c.start));
  fmt::format_to(out, "skipped {} frames of interfaces with no destination{}\n", c.no_route,
                 r.unrouted_interfaces.empty()
                     ? std::string()
                     : fmt::format(" ({})", fmt::join(r.unrouted_interfaces, ", ")));
  if (r.filtered) fmt::format_to(out, "filtered out {} frames (--ids)\n", c.filtered);
  if (r.speed > 0) {
    fmt::format_to(out,
                   "late {} frames (> {} us); lateness p50 {:.0f} us, p99 {:.0f} us, max {:.1f} "
                   "us\n",
                   c.late, to_us(r.late_after), r.lateness.percentile_us(0.5),
                   r.lateness.percentile_us(0.99), to_us(r.lateness.max_ns));
    fmt::format_to(out, "duration error {:+.1f} us ({:.6f} s played, {:.6f} s expected)\n",
                   to_us(c.duration_error()), to_s(c.last_sent - c.first_sent),
                   to_s(c.last_deadline - c.first_deadline));
  } else {
    const double seconds = to_s(c.last_sent - c.first_sent);
    fmt::format_to(out, "speed max: {:.0f} frames/s (no deadlines, no lateness)\n",
                   seconds > 0 ? static_cast<double>(c.sent) / seconds : 0.0);
  }
  fmt::format_to(out, "back-pressure: {} retries, {} frames given up\n", c.back_pressure_retries,
                 c.back_pressure_gave_up);
  if (c.unsupported + c.failed > 0) {
    fmt::format_to(out, "refused by the transport: {} unsupported, {} failed\n", c.unsupported,
                   c.failed);
  }
  for (const TransportDrops& d : r.transport_drops) {
    fmt::format_to(out, "{}: {} frames dropped by the transport after send ({})\n", d.uri, d.frames,
                   d.reasons);
  }
  if (r.bad_lines > 0) fmt::format_to(out, "skipped {} malformed lines (--lenient)\n", r.bad_lines);
  if (r.asc_events > 0) {
    fmt::format_to(out, "ignored {} ASC events that are not frames\n", r.asc_events);
  }
  if (r.lost() > 0) fmt::format_to(out, "NOT SENT: {} frames\n", r.lost());
  fmt::format_to(out, "{}\n", r.realtime);
  return s;
}

nlohmann::json play_report_json(const PlayReport& r) {
  const io::can::PlayCounts& c = r.counts;
  nlohmann::json j;
  j["frames_sent"] = c.sent;
  j["frames_per_loop"] = r.frames_per_loop;
  j["loops_requested"] = r.loops_requested;
  j["loops_completed"] = c.loops_completed;
  j["stopped"] = c.stopped;
  j["skipped_no_route"] = c.no_route;
  j["unrouted_interfaces"] = r.unrouted_interfaces;
  j["filtered"] = c.filtered;
  j["late"] = c.late;
  j["late_after_us"] = to_us(r.late_after);
  if (r.speed > 0) {
    j["lateness_us"] = {{"p50", r.lateness.percentile_us(0.5)},
                        {"p99", r.lateness.percentile_us(0.99)},
                        {"max", to_us(r.lateness.max_ns)},
                        {"mean", r.lateness.mean_us}};
    j["duration_error_us"] = to_us(c.duration_error());
  } else {
    j["lateness_us"] = nullptr;
    j["duration_error_us"] = nullptr;
  }
  j["played_s"] = to_s(c.last_sent - c.first_sent);
  j["back_pressure_retries"] = c.back_pressure_retries;
  j["not_sent"] = {{"back_pressure", c.back_pressure_gave_up},
                   {"unsupported", c.unsupported},
                   {"failed", c.failed}};
  j["transport_drops"] = nlohmann::json::object();
  for (const TransportDrops& d : r.transport_drops) j["transport_drops"][d.uri] = d.frames;
  j["bad_lines"] = r.bad_lines;
  j["asc_events"] = r.asc_events;
  j["realtime"] = r.realtime;
  return j;
}

}  // namespace hil::session
