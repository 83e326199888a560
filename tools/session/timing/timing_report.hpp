#pragma once
// What `hilsim timing` measured, as a readable summary and as JSON.

#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <vector>

#include "rt_core/executive.hpp"
#include "rt_core/rt_setup.hpp"

namespace hil::session {

struct TimingReport {
  rt::ExecutiveSpec config;
  rt::RtSpec rt_options;
  rt::Nanoseconds duration = 0;
  rt::Nanoseconds load = 0;
  std::string workload;                 ///< "" for the synthetic load, else the rig's
  std::vector<std::string> task_names;  ///< the executive's tasks, for per-task rows
  rt::RtStatus status;
  rt::RunResult result;
  rt::TimingSnapshot stats;
  std::optional<rt::HistogramSummary> cyclictest;
};

/// Human summary, several lines, ending in a newline.
[[nodiscard]] std::string format_summary(const TimingReport& report);

/// The figures of format_summary() with stable keys: period_ns, ticks, overruns, realtime,
/// wake_latency_us{p50,p99,p999,p9999,max}, exec_time_us{p50,p99,p999,max}, and with
/// cyclictest: cyclictest_us{p50,p99,p999,max}, ratio_p99.
[[nodiscard]] nlohmann::json to_json(const TimingReport& report);

/// Our wake-up p99 over cyclictest's; nullopt without a comparison or when cyclictest's is 0.
[[nodiscard]] std::optional<double> ratio_p99(const TimingReport& report);

}  // namespace hil::session
