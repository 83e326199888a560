#include "runtime/sensors/lidar_topics.hpp"

#include "io/scene/point_cloud_message.hpp"

namespace hil::runtime {

namespace {
constexpr double kRateWithoutScene = 50.0;  // [Hz]: a 20 Hz lidar's clouds wait ≤ 20 ms
}  // namespace

std::unique_ptr<LidarRecorderTopics> LidarRecorderTopics::make(
    const std::vector<std::unique_ptr<LidarStage>>& lidars, io::record::ExtraTopics* inner,
    std::int64_t period_ns) {
  std::vector<LidarStage*> recording;
  for (const auto& l : lidars) {
    if (l->spec().record_points && l->worker() != nullptr) recording.push_back(l.get());
  }
  if (recording.empty()) return nullptr;
  return std::unique_ptr<LidarRecorderTopics>(
      new LidarRecorderTopics(std::move(recording), inner, period_ns));
}

LidarRecorderTopics::LidarRecorderTopics(std::vector<LidarStage*> lidars,
                                         io::record::ExtraTopics* inner, std::int64_t period_ns)
    : lidars_(std::move(lidars)),
      inner_(inner),
      inner_topics_(inner != nullptr ? inner->topics().size() : 0),
      period_ns_(period_ns) {}

std::vector<io::record::ExtraTopic> LidarRecorderTopics::topics() const {
  std::vector<io::record::ExtraTopic> out;
  if (inner_ != nullptr) out = inner_->topics();
  const std::span<const std::uint8_t> schema = io::scene::point_cloud_schema();
  for (const LidarStage* l : lidars_) {
    out.push_back({.topic = "/lidar/" + l->spec().name,
                   .schema_name = std::string(io::scene::kPointCloudSchema),
                   .schema = {schema.begin(), schema.end()}});
  }
  return out;
}

double LidarRecorderTopics::rate_hz() const noexcept {
  return inner_ != nullptr ? inner_->rate_hz() : kRateWithoutScene;
}

void LidarRecorderTopics::file_start(std::int64_t tick, std::uint64_t log_time_ns,
                                     const Write& write) {
  if (inner_ != nullptr) inner_->file_start(tick, log_time_ns, write);
}

void LidarRecorderTopics::sample(std::int64_t tick, std::uint64_t log_time_ns,
                                 std::span<const double> values, const Write& write) {
  if (inner_ != nullptr) inner_->sample(tick, log_time_ns, values, write);
  // The run's start on the log's clock: the clouds are stamped at their revolution's end
  const std::uint64_t start_ns = log_time_ns - static_cast<std::uint64_t>(tick * period_ns_);
  for (std::size_t i = 0; i < lidars_.size(); ++i) {
    LidarWorker& worker = *lidars_[i]->worker();
    while (const LidarCloud* cloud = worker.take_cloud()) {
      const std::vector<std::uint8_t> message = io::scene::point_cloud_message(
          start_ns + static_cast<std::uint64_t>(cloud->end_ns), "lidar_" + lidars_[i]->spec().name,
          {cloud->xyzi.data(), cloud->points * 4});
      worker.give_back(cloud);
      write(inner_topics_ + i, message);
      ++written_;
    }
  }
}

}  // namespace hil::runtime
