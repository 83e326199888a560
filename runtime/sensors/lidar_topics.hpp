#pragma once
// The lidars' point clouds in telemetry.mcap (docs/sensors.md "Lidar"): one
// foxglove.PointCloud a revolution on /lidar/<name> (lidars with record_points), in the
// lidar's frame "lidar_<name>", stamped with the end of the revolution. Extra topics of the
// telemetry recorder (io/record/extra_topics.hpp) stacked on the 3D scene's (`inner`, may be
// null): its topics come first and are written at its rate; the clouds finished by then are
// drained at each of its samples (50 Hz without a scene), so none waits longer than a sample.
//
// Thread-safety: the recorder's thread (io/record/extra_topics.hpp).

#include <cstdint>
#include <memory>
#include <vector>

#include "io/record/extra_topics.hpp"
#include "runtime/sensors/lidar_stage.hpp"

namespace hil::runtime {

class LidarRecorderTopics final : public io::record::ExtraTopics {
 public:
  /// nullptr when no lidar records its points. `lidars` and `inner` must outlive it.
  [[nodiscard]] static std::unique_ptr<LidarRecorderTopics> make(
      const std::vector<std::unique_ptr<LidarStage>>& lidars, io::record::ExtraTopics* inner,
      std::int64_t period_ns);

  [[nodiscard]] std::vector<io::record::ExtraTopic> topics() const override;
  [[nodiscard]] double rate_hz() const noexcept override;
  void file_start(std::int64_t tick, std::uint64_t log_time_ns, const Write& write) override;
  void sample(std::int64_t tick, std::uint64_t log_time_ns, std::span<const double> values,
              const Write& write) override;
  /// Clouds written (the recorder's thread, or after the run).
  [[nodiscard]] std::uint64_t clouds_written() const noexcept { return written_; }

 private:
  LidarRecorderTopics(std::vector<LidarStage*> lidars, io::record::ExtraTopics* inner,
                      std::int64_t period_ns);
  std::vector<LidarStage*> lidars_;
  io::record::ExtraTopics* inner_;
  std::size_t inner_topics_;
  std::int64_t period_ns_;
  std::uint64_t written_ = 0;
};

}  // namespace hil::runtime
