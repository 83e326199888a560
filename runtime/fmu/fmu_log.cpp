#include "runtime/fmu/fmu_log.hpp"

namespace hil::runtime {

std::unique_ptr<WorkerLogWriter> fmu_log_writer(const std::vector<std::unique_ptr<FmuStage>>& fmus,
                                                const std::filesystem::path& path) {
  std::vector<WorkerLogWriter::Source> sources;
  for (const auto& f : fmus) {
    if (!f->on_worker()) continue;
    FmuStage* stage = f.get();
    sources.push_back({.name = f->instance(), .take = [stage](std::vector<WorkerEvent>& out) {
                         return stage->take_events(out);
                       }});
  }
  return std::make_unique<WorkerLogWriter>(kFmuLog, std::move(sources), path);
}

}  // namespace hil::runtime
