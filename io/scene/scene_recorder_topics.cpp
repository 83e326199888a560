#include "io/scene/scene_recorder_topics.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

namespace hil::io::scene {

SceneRecorderTopics::SceneRecorderTopics(std::shared_ptr<const Scene> scene,
                                         const rt::ChannelTable& table, double rate_hz,
                                         std::int64_t period_ns)
    : scene_(std::move(scene)),
      messages_(*scene_, table),
      rate_hz_(rate_hz),
      trail_every_ticks_(std::max<std::int64_t>(
          1, std::llround(1e9 / (kTrailRateHz * static_cast<double>(period_ns))))) {}

std::vector<record::ExtraTopic> SceneRecorderTopics::topics() const {
  std::vector<record::ExtraTopic> out;
  for (const SceneTopicInfo& t : kSceneTopics) {
    const std::span<const std::uint8_t> schema = scene_schema(t.id);
    out.push_back({.topic = std::string(t.topic),
                   .schema_name = std::string(t.schema_name),
                   .schema = {schema.begin(), schema.end()}});
  }
  return out;
}

void SceneRecorderTopics::file_start(std::int64_t /*tick*/, std::uint64_t log_time_ns,
                                     const Write& write) {
  for (const SceneTopicInfo& t : kSceneTopics) {
    if (!t.per_sample) {
      write(static_cast<std::size_t>(t.id), messages_.static_message(t.id, log_time_ns));
    }
  }
}

void SceneRecorderTopics::sample(std::int64_t tick, std::uint64_t log_time_ns,
                                 std::span<const double> values, const Write& write) {
  messages_.transforms(values, log_time_ns, [&](std::span<const std::uint8_t> m) {
    write(static_cast<std::size_t>(SceneTopic::tf), m);
  });
  messages_.forces(values, log_time_ns, [&](std::span<const std::uint8_t> m) {
    write(static_cast<std::size_t>(SceneTopic::forces), m);
  });
  messages_.objects(values, log_time_ns, [&](std::span<const std::uint8_t> m) {
    write(static_cast<std::size_t>(SceneTopic::objects), m);
  });
  const FrameTransformValue body = messages_.frames().body(values);
  trail_.add(body.translation[0], body.translation[1], body.translation[2]);
  if (trail_written_at_ < 0 || tick - trail_written_at_ >= trail_every_ticks_) {
    trail_written_at_ = tick;
    messages_.trail(trail_, log_time_ns, [&](std::span<const std::uint8_t> m) {
      write(static_cast<std::size_t>(SceneTopic::trail), m);
    });
  }
}

}  // namespace hil::io::scene
