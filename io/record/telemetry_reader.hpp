#pragma once
// Reads telemetry.mcap back into samples: (topic, tick, sim time, channel values) and
// events, on top of read_mcap (whole or truncated files, CRCs checked). Used by
// `hilsim export` and, later, replay. Thread-safety: reentrant; one visitor per call.

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "io/record/mcap_reader.hpp"
#include "io/record/telemetry_layout.hpp"

namespace hil::io::record {

class TelemetryVisitor {
 public:
  virtual ~TelemetryVisitor() = default;
  TelemetryVisitor() = default;
  TelemetryVisitor(const TelemetryVisitor&) = delete;
  TelemetryVisitor& operator=(const TelemetryVisitor&) = delete;

  /// A telemetry topic, numbered 0, 1, … in file order; before its first sample. `layout`
  /// stays valid until read_telemetry() returns.
  virtual void on_topic(std::size_t /*topic*/, const TelemetryLayout& /*layout*/) {}
  /// One decoded sample of `topic`; its values follow the layout's columns.
  virtual void on_sample(std::size_t /*topic*/, std::uint64_t /*log_time_ns*/,
                         const TelemetrySample& /*sample*/) {}
  virtual void on_event(std::uint64_t /*log_time_ns*/, const TelemetryEvent& /*event*/) {}
  virtual void on_metadata(std::string_view /*name*/, const StringMap& /*metadata*/) {}
  virtual void on_progress(std::uint64_t /*offset*/, std::uint64_t /*total*/) {}
};

struct TelemetryReadReport {
  McapReadReport mcap;
  std::uint64_t samples = 0, events = 0;
  std::uint64_t undecodable = 0;            ///< messages whose bytes did not decode (skipped)
  std::vector<std::string> skipped_topics;  ///< "topic: why" for non-telemetry channels
};

[[nodiscard]] TelemetryReadReport read_telemetry(std::span<const std::uint8_t> file,
                                                 TelemetryVisitor& visitor);

}  // namespace hil::io::record
