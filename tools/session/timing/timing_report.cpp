#include "tools/session/timing/timing_report.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace hil::session {

namespace {

double us(rt::Nanoseconds ns) { return static_cast<double>(ns) / 1e3; }

nlohmann::json percentiles(const rt::HistogramSummary& h, bool with_p9999) {
  nlohmann::json j = {{"min", us(h.min_ns)},
                      {"mean", h.mean_us},
                      {"p50", h.percentile_us(0.50)},
                      {"p99", h.percentile_us(0.99)},
                      {"p999", h.percentile_us(0.999)},
                      {"max", us(h.max_ns)},
                      {"samples", h.count},
                      {"overflow", h.overflow}};
  if (with_p9999) j["p9999"] = h.percentile_us(0.9999);
  return j;
}

std::string row(std::string_view name, const rt::HistogramSummary& h) {
  return fmt::format("  {:<22} {:>8.0f} {:>8.0f} {:>8.0f} {:>8.0f} {:>9.1f}\n", name,
                     h.percentile_us(0.50), h.percentile_us(0.99), h.percentile_us(0.999),
                     h.percentile_us(0.9999), us(h.max_ns));
}

std::string_view stop_reason(rt::StopReason r) {
  switch (r) {
    case rt::StopReason::tick_limit:
      return "completed";
    case rt::StopReason::stop_requested:
      return "stopped by the operator";
    case rt::StopReason::overrun_limit:
      return "stopped by the stop_after overrun policy";
  }
  return "?";
}

}  // namespace

std::optional<double> ratio_p99(const TimingReport& r) {
  if (!r.cyclictest) return std::nullopt;
  const double theirs = r.cyclictest->percentile_us(0.99);
  if (theirs <= 0.0) return std::nullopt;
  return r.stats.wake_latency.percentile_us(0.99) / theirs;
}

std::string format_summary(const TimingReport& r) {
  const rt::TimingSnapshot& s = r.stats;
  std::string out = fmt::format(
      "hilsim timing: period {}, load {}, policy {}, {}\n"
      "  ticks {} ({}), overruns {}, missed periods {}, catch-up ticks {}\n"
      "  {}\n\n"
      "  {:<22} {:>8} {:>8} {:>8} {:>8} {:>9}\n",
      rt::format_duration(r.config.period),
      r.workload.empty() ? rt::format_duration(r.load) : r.workload,
      rt::to_string(r.config.overrun.kind),
      r.rt_options.priority > 0 ? fmt::format("SCHED_FIFO {}", r.rt_options.priority)
                                : std::string("SCHED_OTHER"),
      s.ticks, stop_reason(r.result.reason), s.overruns, s.missed_periods, s.catch_up_ticks,
      r.status.summary(), "[us]", "p50", "p99", "p99.9", "p99.99", "max");
  out += row("wake-up latency", s.wake_latency);
  out += row("execution time", s.exec_time);
  if (!r.workload.empty()) {  // a rig: where its time goes
    if (r.config.task_timing_stride > 1) {
      out += fmt::format("  (tasks timed on every {}th tick: faster than real time)\n",
                         r.config.task_timing_stride);
    }
    for (std::size_t i = 0; i < s.task_exec_time.size() && i < r.task_names.size(); ++i) {
      out += row(fmt::format("  task {}", r.task_names[i]), s.task_exec_time[i]);
    }
  }
  if (r.cyclictest) out += row("cyclictest latency", *r.cyclictest);
  if (const auto ratio = ratio_p99(r)) {
    out += fmt::format("\n  wake-up p99 / cyclictest p99 = {:.2f} (goal <= 1.25)\n", *ratio);
  }
  if (!s.recent_overruns.empty()) {
    out += "\n  last overruns at ticks:";
    const std::size_t shown = std::min<std::size_t>(s.recent_overruns.size(), 10);
    for (std::size_t i = s.recent_overruns.size() - shown; i < s.recent_overruns.size(); ++i) {
      out += fmt::format(" {}", s.recent_overruns[i].tick);
    }
    out += "\n";
  }
  return out;
}

nlohmann::json to_json(const TimingReport& r) {
  const rt::TimingSnapshot& s = r.stats;
  nlohmann::json overruns = nlohmann::json::array();
  for (const rt::OverrunEvent& e : s.recent_overruns) {
    overruns.push_back({{"tick", e.tick}, {"late_by_ns", e.late_by}});
  }
  nlohmann::json j = {
      {"period_ns", r.config.period},
      {"duration_ns", r.duration},
      {"load_ns", r.load},
      {"policy", rt::to_string(r.config.overrun.kind)},
      {"priority", r.rt_options.priority},
      {"cpu", r.rt_options.cpu ? nlohmann::json(*r.rt_options.cpu) : nlohmann::json(nullptr)},
      {"ticks", s.ticks},
      {"stop_reason", stop_reason(r.result.reason)},
      {"overruns", s.overruns},
      {"missed_periods", s.missed_periods},
      {"catch_up_ticks", s.catch_up_ticks},
      {"recent_overruns", overruns},
      {"realtime", r.status.realtime()},
      {"realtime_status", r.status.summary()},
      {"warnings", r.status.warnings},
      {"wake_latency_us", percentiles(s.wake_latency, true)},
      {"exec_time_us", percentiles(s.exec_time, false)},
  };
  if (!r.workload.empty()) {
    j["workload"] = r.workload;
    j["task_timing_stride"] = r.config.task_timing_stride;
    for (std::size_t i = 0; i < s.task_exec_time.size() && i < r.task_names.size(); ++i) {
      j["task_exec_time_us"][r.task_names[i]] = percentiles(s.task_exec_time[i], false);
    }
  }
  if (r.cyclictest) {
    j["cyclictest_us"] = percentiles(*r.cyclictest, true);
    const auto ratio = ratio_p99(r);
    j["ratio_p99"] = ratio ? nlohmann::json(*ratio) : nlohmann::json(nullptr);
  }
  return j;
}

}  // namespace hil::session
