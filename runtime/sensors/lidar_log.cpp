#include "runtime/sensors/lidar_log.hpp"

namespace hil::runtime {

std::unique_ptr<WorkerLogWriter> lidar_log_writer(
    const std::vector<std::unique_ptr<LidarStage>>& lidars, const std::filesystem::path& path) {
  std::vector<WorkerLogWriter::Source> sources;
  for (const auto& l : lidars) {
    LidarStage* stage = l.get();
    sources.push_back({.name = l->spec().name, .take = [stage](std::vector<WorkerEvent>& out) {
                         return stage->take_events(out);
                       }});
  }
  return std::make_unique<WorkerLogWriter>(kLidarLog, std::move(sources), path);
}

}  // namespace hil::runtime
