#include "config/executive_spec.hpp"

#include "config/executive.pb.h"

#include <fmt/format.h>

namespace hil::config {

namespace {

[[nodiscard]] rt::OverrunPolicy to_overrun_policy(const Executive& executive) {
  rt::OverrunPolicy policy;
  switch (executive.overrun_policy_case()) {
    case Executive::kCatchUp:
      policy.kind = rt::OverrunKind::catch_up;
      if (executive.catch_up().has_max_ticks()) {
        policy.catch_up_max = executive.catch_up().max_ticks();
      }
      break;
    case Executive::kStopAfter:
      policy.kind = rt::OverrunKind::stop_after;
      if (executive.stop_after().has_overruns()) {
        policy.stop_after_overruns = executive.stop_after().overruns();
      }
      if (executive.stop_after().has_window_ticks()) {
        policy.stop_after_window_ticks = executive.stop_after().window_ticks();
      }
      break;
    case Executive::kSkip:
    case Executive::OVERRUN_POLICY_NOT_SET:
      policy.kind = rt::OverrunKind::skip;
      break;
  }
  return policy;
}

[[nodiscard]] std::string describe_policy(const rt::OverrunPolicy& policy) {
  switch (policy.kind) {
    case rt::OverrunKind::skip:
      return "overrun policy skip";
    case rt::OverrunKind::catch_up:
      return fmt::format("overrun policy catch_up (max {} in a row)", policy.catch_up_max);
    case rt::OverrunKind::stop_after:
      return fmt::format("overrun policy stop_after ({} overruns within {} ticks)",
                         policy.stop_after_overruns, policy.stop_after_window_ticks);
  }
  return "overrun policy ?";
}

}  // namespace

rt::ExecutiveSpec to_executive_config(const Executive& executive) {
  rt::ExecutiveSpec config;
  if (executive.has_period_us()) {
    config.period = static_cast<rt::Nanoseconds>(executive.period_us()) * rt::kMicrosecond;
  }
  config.overrun = to_overrun_policy(executive);
  return config;
}

rt::RtSpec to_rt_options(const Executive& executive) {
  rt::RtSpec options;
  if (executive.has_priority()) options.priority = static_cast<int>(executive.priority());
  if (executive.has_cpu()) options.cpu = executive.cpu();
  if (executive.has_lock_memory()) options.lock_memory = executive.lock_memory();
  if (executive.has_hold_dma_latency()) options.hold_dma_latency = executive.hold_dma_latency();
  return options;
}

std::string describe(const rt::ExecutiveSpec& executive, const rt::RtSpec& rt) {
  const std::string scheduling =
      rt.priority > 0 ? fmt::format("SCHED_FIFO {}", rt.priority) : "normal scheduling";
  const std::string placement = rt.cpu ? fmt::format(" on CPU {}", *rt.cpu) : ", any CPU";
  return fmt::format("period {}, {}{}, {}, {}, {}", rt::format_duration(executive.period),
                     scheduling, placement, describe_policy(executive.overrun),
                     rt.lock_memory ? "memory locked" : "memory not locked",
                     rt.hold_dma_latency ? "cpu_dma_latency held" : "cpu_dma_latency not held");
}

}  // namespace hil::config
