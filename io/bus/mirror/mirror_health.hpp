#pragma once
// The mirror's health where operators look (docs/bus.md "Mirror health"): per peer and per
// received region, datagrams received, applied, lost, duplicates, reordered, refused by
// reason (malformed, schema, unknown_source, auth_failed, old_session, over_budget) and the
// round-trip time — one JSON object for manifest.json, the console's status and
// `hilsim bus ls` (which reads it from the file the rig keeps beside the bus's endpoint), and
// the run summary's lines.
//
// These counters follow the network's timing, not the ticks: a replay does not reproduce
// them, so they are not channels (what the tick consumed is: bus.<region>.{seq, lost, ...}).
//
// Thread-safety: any thread (the counters are relaxed atomics; a report may mix a datagram's
// effect on one counter with the one before on another).

#include <condition_variable>
#include <filesystem>
#include <mutex>
#include <string>
#include <thread>

#include <nlohmann/json.hpp>

#include "io/bus/bus_schema.hpp"
#include "io/bus/mirror/mirror.hpp"

namespace hil::io::bus::mirror {

/// The refusal reasons in the order reports list them.
inline constexpr const char* kRefusalReasons[] = {"malformed",   "schema",      "unknown_source",
                                                  "auth_failed", "old_session", "over_budget"};

/// {"bind", "tag", "budget_datagrams_per_tick", "tick_ns", "totals": {...}, "peers": [...],
///  "regions": [...]}, each count object with "dropped": {reason: count} (the shape of the CAN
/// links' counters); counts as in docs/bus.md "Mirror health".
[[nodiscard]] nlohmann::json mirror_health_json(const Mirror& mirror, const BusSchema& schema);

/// The run summary's lines: "  mirror on ADDR: ..." then one per peer and per received region,
/// each ending in a newline.
[[nodiscard]] std::string mirror_health_text(const nlohmann::json& health);

/// Where the rig keeps its mirror's health for `hilsim bus ls`: "<endpoint>.mirror.json".
[[nodiscard]] std::filesystem::path mirror_health_file(const std::filesystem::path& endpoint);
/// Writes `health` to `file` atomically (a temporary file renamed over it); false when it
/// cannot (the caller goes on: health is advisory).
bool write_mirror_health(const std::filesystem::path& file, const nlohmann::json& health) noexcept;

/// Keeps mirror_health_file(endpoint) up to date once a second on its own thread (never the
/// mirror's or the RT thread), and removes it when destroyed. Construct and destroy from one
/// owner thread.
class HealthFileWriter {
 public:
  HealthFileWriter(const Mirror& mirror, const BusSchema& schema,
                   const std::filesystem::path& endpoint);
  ~HealthFileWriter();
  HealthFileWriter(const HealthFileWriter&) = delete;
  HealthFileWriter& operator=(const HealthFileWriter&) = delete;

 private:
  const Mirror& mirror_;
  const BusSchema& schema_;
  std::filesystem::path file_;
  std::mutex mutex_;
  std::condition_variable wake_;
  bool stop_ = false;
  std::thread thread_;
};

}  // namespace hil::io::bus::mirror
