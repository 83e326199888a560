// The console's status message (docs/console.md, `status`): where the run is, its timing
// against the period, the loop's tasks, CAN and the recorder, the operator lock, the console's
// own counters. Sent every 250 ms (1 s while idle) and when the run ends.
#include <chrono>
#include <optional>

#include "io/console/server_core.hpp"

namespace hil::io::console::detail {

Json Core::status_json(const WsSession& s) const {
  const double period_s = static_cast<double>(feed.run.period_ns) * 1e-9;
  const std::int64_t ticks = final_ticks >= 0 ? final_ticks : timing.ticks;
  const double sim = static_cast<double>(ticks) * period_s;
  const double wall =
      executive == nullptr ? 0.0 : std::chrono::duration<double>(Clock::now() - started_at).count();
  const std::optional<std::int64_t> last_overrun =
      executive != nullptr ? executive->stats().last_overrun_tick() : std::nullopt;
  Json tasks = Json::array();
  if (executive != nullptr) {
    const auto entries = executive->stages();
    for (std::size_t i = 0; i < entries.size() && i < timing.task_exec_time.size(); ++i) {
      tasks.push_back({{"name", entries[i].name},
                       {"p99_us", timing.task_exec_time[i].percentile_us(0.99)},
                       {"max_us", static_cast<double>(timing.task_exec_time[i].max_ns) * 1e-3}});
    }
  }
  Json m{{"type", "status"},
         {"state", state},
         {"end", ending ? Json(*ending) : Json()},
         {"tick", ticks},
         {"sim_time_s", sim},
         {"rtf", wall > 0 ? Json(sim / wall) : Json()},
         {"overruns", executive != nullptr ? executive->stats().overruns() : 0},
         {"last_overrun_tick", last_overrun ? Json(*last_overrun) : Json()},
         {"missed", timing.missed_periods},
         {"wake_p99_us", timing.wake_latency.percentile_us(0.99)},
         {"wake_max_us", static_cast<double>(timing.wake_latency.max_ns) * 1e-3},
         {"exec_p99_us", timing.exec_time.percentile_us(0.99)},
         {"exec_max_us", static_cast<double>(timing.exec_time.max_ns) * 1e-3},
         {"tasks", std::move(tasks)},
         {"can", Json::array()},
         {"recorder", Json()},
         {"operator_lock", lock_json()},
         {"console",
          {{"clients", sessions.size()},
           {"tap_drops", tap.dropped()},
           {"dropped_frames", s.dropped_frames},
           {"dropped_frames_all", counters.dropped_frames.load(std::memory_order_relaxed)},
           {"refused", counters.refused.load(std::memory_order_relaxed)},
           {"bad_messages", counters.bad_messages.load(std::memory_order_relaxed)},
           {"closed_stalled", counters.closed_stalled.load(std::memory_order_relaxed)}}}};
  if (feed.counters) {
    const Json extra = feed.counters();
    if (extra.contains("can")) m["can"] = extra["can"];
    if (extra.contains("recorder")) m["recorder"] = extra["recorder"];
    if (extra.contains("bus_mirror")) m["bus_mirror"] = extra["bus_mirror"];  // docs/bus.md
  }
  return m;
}

}  // namespace hil::io::console::detail
