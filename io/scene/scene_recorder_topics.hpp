#pragma once
// The 3D scene in telemetry.mcap (docs/recording.md "scene_rate_hz"): the topics of
// io/scene/foxglove_schemas.hpp as extra topics of the telemetry recorder — /scene/world,
// /scene/vehicle and /scene/path at the start of each file; /tf, /scene/forces and
// /scene/objects (the moving objects, when there are) every recorded tick at the scene rate;
// /scene/trail at most kTrailRateHz (a full trail is 2000 poses, ~140 kB).
//
// Thread-safety: the recorder's thread (io/record/extra_topics.hpp).

#include <cstdint>
#include <memory>

#include "io/record/extra_topics.hpp"
#include "io/scene/scene.hpp"
#include "io/scene/scene_messages.hpp"
#include "io/scene/scene_trail.hpp"
#include "rt_core/channel_table.hpp"

namespace hil::io::scene {

class SceneRecorderTopics final : public record::ExtraTopics {
 public:
  /// Setup: `rate_hz` > 0; `period_ns` the tick's. Throws std::invalid_argument naming a
  /// channel of the scene that `table` lacks.
  SceneRecorderTopics(std::shared_ptr<const Scene> scene, const rt::ChannelTable& table,
                      double rate_hz, std::int64_t period_ns);

  [[nodiscard]] std::vector<record::ExtraTopic> topics() const override;
  [[nodiscard]] double rate_hz() const noexcept override { return rate_hz_; }
  void file_start(std::int64_t tick, std::uint64_t log_time_ns, const Write& write) override;
  void sample(std::int64_t tick, std::uint64_t log_time_ns, std::span<const double> values,
              const Write& write) override;

 private:
  std::shared_ptr<const Scene> scene_;
  SceneMessages messages_;
  SceneTrail trail_;
  double rate_hz_;
  std::int64_t trail_every_ticks_;
  std::int64_t trail_written_at_ = -1;  // tick of the last /scene/trail, −1: none yet
};

}  // namespace hil::io::scene
