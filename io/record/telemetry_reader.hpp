#pragma once
// Reads telemetry.mcap back into samples: (topic, tick, sim time, channel values) and
// events, on top of read_mcap (whole or truncated files, CRCs checked). Used by
// `hilsim export` and, later, replay. Thread-safety: reentrant; one visitor per call.

#include <cstdint>
#include <filesystem>
#include <span>
#include <string>
#include <vector>

#include "io/record/mcap/mcap_reader.hpp"
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

/// Part `part` of a split recording: `first` itself for 0, else telemetry.mcap →
/// telemetry.<part>.mcap.
[[nodiscard]] std::filesystem::path telemetry_part_path(const std::filesystem::path& first,
                                                        std::size_t part);

/// The files of a recording whose first file is `first` (telemetry.mcap): it, then
/// telemetry.1.mcap, telemetry.2.mcap, … as long as they exist (split files).
[[nodiscard]] std::vector<std::filesystem::path> telemetry_parts(
    const std::filesystem::path& first);

/// Reads the files of a split recording as one: topics are numbered once across them (by
/// topic name), samples and events in file order. The report: counts summed, the MCAP report
/// of the last file read — or of the first file that is not complete, where reading stops
/// (a file after a truncated one would leave a gap). Throws std::system_error when a file
/// cannot be opened.
[[nodiscard]] TelemetryReadReport read_telemetry_files(
    const std::vector<std::filesystem::path>& files, TelemetryVisitor& visitor);

}  // namespace hil::io::record
