#include "config/recording_spec.hpp"

#include "config/recording.pb.h"

#include <fmt/format.h>

#include <cmath>

namespace hil::config {

ConfigErrors check_recording(const Recording& block, double tick_rate_hz, std::string_view prefix,
                             const SourceMap& sources, RecordingSpec& out) {
  ConfigErrors errors;
  const std::string at(prefix);
  for (int i = 0; i < block.rates_size(); ++i) {
    const GroupRate& r = block.rates(i);
    const std::string field = fmt::format("{}.rates[{}]", at, i);
    if (r.groups().empty()) {
      errors.push_back(sources.error(
          field + ".groups", "no groups: a wildcard on group names, e.g. \"vehicle.wheel.*\""));
    }
    if (!(r.rate_hz() > 0.0) || !std::isfinite(r.rate_hz()) ||
        r.rate_hz() > tick_rate_hz * 1.000001) {
      errors.push_back(sources.error(
          field + ".rate_hz",
          fmt::format("{} Hz is not a rate of this rig: > 0 and at most its tick rate, {} Hz",
                      r.rate_hz(), tick_rate_hz)));
    }
    out.rates_hz.emplace_back(r.groups(), r.rate_hz());
  }
  if (const auto c = io::record::compression_named(block.compression())) {
    out.compression = block.compression().empty() ? io::record::Compression::zstd : *c;
  } else {
    errors.push_back(sources.error(
        at + ".compression",
        fmt::format("\"{}\" is not a compression: zstd, lz4 or none", block.compression())));
  }
  if (block.split_size_mb() < 0 || !std::isfinite(block.split_size_mb()) ||
      (block.split_size_mb() > 0 && block.split_size_mb() < 1)) {
    errors.push_back(sources.error(
        at + ".split_size_mb",
        fmt::format("{} MiB: 0 (no split) or at least 1 MiB", block.split_size_mb())));
  }
  out.split_bytes = static_cast<std::uint64_t>(std::max(0.0, block.split_size_mb()) * 1048576.0);
  if (block.split_duration_s() < 0 || !std::isfinite(block.split_duration_s())) {
    errors.push_back(
        sources.error(at + ".split_duration_s",
                      fmt::format("{} s: 0 (no split) or a duration", block.split_duration_s())));
  }
  out.split_duration_s = std::max(0.0, block.split_duration_s());
  if (block.min_free_mb() == -1.0) {
    out.min_free_bytes = 0;
  } else if (block.min_free_mb() < 0 || !std::isfinite(block.min_free_mb())) {
    errors.push_back(
        sources.error(at + ".min_free_mb",
                      fmt::format("{} MiB: a size, 0 for the default (256) or -1 for no watermark",
                                  block.min_free_mb())));
  } else if (block.min_free_mb() > 0) {
    out.min_free_bytes = static_cast<std::uint64_t>(block.min_free_mb() * 1048576.0);
  }
  if (block.has_scene_rate_hz()) {
    const double rate = block.scene_rate_hz();
    if (!std::isfinite(rate) || rate < 0 || rate > tick_rate_hz * 1.000001) {
      errors.push_back(sources.error(
          at + ".scene_rate_hz",
          fmt::format("{} Hz is not a scene rate of this rig: 0 (no scene) or > 0 and at most "
                      "its tick rate, {} Hz",
                      rate, tick_rate_hz)));
    }
    out.scene_rate_hz = rate;
  }
  return errors;
}

}  // namespace hil::config
