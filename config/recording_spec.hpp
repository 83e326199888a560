#pragma once
// From the `recording` block (config/recording.proto) to what the run's recorders take: per-group
// rates, compression, split limits, the free-space watermark; each problem located at
// file:line:column. Setup phase; thread-safe.

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "config/text/config_error.hpp"
#include "config/text/source_map.hpp"
#include "io/record/mcap/chunk_compression.hpp"

namespace hil::config {

class Recording;  // config/recording.proto

struct RecordingSpec {
  std::vector<std::pair<std::string, double>> rates_hz;  ///< group pattern → rate, in order
  io::record::Compression compression = io::record::Compression::zstd;
  std::uint64_t split_bytes = 0;                ///< 0: no limit
  double split_duration_s = 0.0;                ///< 0: no limit
  std::uint64_t min_free_bytes = 256ULL << 20;  ///< 0: no watermark
  double scene_rate_hz = 50.0;                  ///< the 3D scene's topics; 0: no scene
};

/// The settings of the block at `prefix` ("recording"), or errors. `tick_rate_hz`: the
/// executive's, the highest rate a group may have.
[[nodiscard]] ConfigErrors check_recording(const Recording& block, double tick_rate_hz,
                                           std::string_view prefix, const SourceMap& sources,
                                           RecordingSpec& out);

}  // namespace hil::config
