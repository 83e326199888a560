// The scene in telemetry.mcap (io/scene/scene_recorder_topics.hpp): every scene topic with
// its schema, the static ones at the start of each file, /tf at the scene rate with the body
// transform of tick k equal to the pose channels recorded at tick k, the trail at ≤ 2 Hz.

#include <gtest/gtest.h>

#include <map>

#include "io/record/mapped_file.hpp"
#include "io/record/mcap/mcap_reader.hpp"
#include "io/record/telemetry_reader.hpp"
#include "io/record/telemetry_recorder.hpp"
#include "io/scene/foxglove/FrameTransform.pb.h"
#include "io/scene/scene_recorder_topics.hpp"
#include "tests/io/scene/scene_fixture.hpp"
#include "tests/support/temp_dir.hpp"

namespace hil::io::scene {
namespace {

constexpr std::int64_t kPeriod = 1'000'000;  // 1 kHz
constexpr std::uint64_t kStart = 1'000'000'000'000;

double pose_of(std::int64_t tick, std::size_t channel) {
  return 0.001 * static_cast<double>(tick) + 0.1 * static_cast<double>(channel);
}

struct Scan final : record::McapVisitor {
  void on_schema(const record::McapSchema& s) override { schemas[s.id] = s.name; }
  void on_channel(const record::McapChannel& c) override {
    topics[c.id] = c.topic;
    schema_of[c.topic] = schemas.at(c.schema_id);
  }
  void on_message(const record::McapMessage& m) override {
    const std::string& topic = topics.at(m.channel_id);
    ++count[topic];
    if (first.empty()) first = topic;
    if (topic == "/scene/world" || topic == "/scene/vehicle" || topic == "/scene/path") {
      static_times[topic].push_back(m.log_time);
    }
    if (topic == "/scene/trail") trail_times.push_back(m.log_time);
    if (topic != "/tf") return;
    foxglove::FrameTransform t;
    ASSERT_TRUE(t.ParseFromArray(m.data.data(), static_cast<int>(m.data.size())));
    if (t.child_frame_id() == "body") body[m.log_time] = t;
  }
  std::map<std::uint16_t, std::string> schemas, topics;
  std::map<std::string, std::string> schema_of;
  std::map<std::string, std::size_t> count;
  std::map<std::string, std::vector<std::uint64_t>> static_times;
  std::vector<std::uint64_t> trail_times;
  std::map<std::uint64_t, foxglove::FrameTransform> body;
  std::string first;
};

TEST(SceneRecorderTopics, TheRecordingCarriesTheSceneAtItsRate) {
  const config::testing::TempDir dir;
  auto scene = std::make_shared<const Scene>(testing::two_axle_scene());
  const testing::SceneTable table(*scene);
  SceneRecorderTopics topics(scene, table, 50.0, kPeriod);
  {
    record::TelemetryRecorder rec(table, dir.path() / "telemetry.mcap",
                                  {.tick_period_ns = kPeriod,
                                   .start_time_ns = kStart,
                                   .split_ticks = 1000,
                                   .extra_topics = &topics});
    std::vector<double> values(table.size());
    for (std::int64_t k = 0; k < 2000; ++k) {
      for (std::size_t c = 0; c < values.size(); ++c) values[c] = pose_of(k, c);
      while (rec.push(k, values) == record::PushResult::dropped) std::this_thread::yield();
    }
    rec.stop();
    EXPECT_EQ(rec.error(), "");
  }
  const auto parts = record::telemetry_parts(dir.path() / "telemetry.mcap");
  ASSERT_EQ(parts.size(), 2U);
  std::size_t bodies = 0;
  for (std::size_t p = 0; p < parts.size(); ++p) {
    const record::MappedFile file(parts[p]);
    Scan scan;
    ASSERT_EQ(record::read_mcap(file.bytes(), scan).end, record::McapEnd::complete);
    for (const SceneTopicInfo& t : kSceneTopics) {
      EXPECT_EQ(scan.schema_of.at(std::string(t.topic)), t.schema_name) << t.topic;
    }
    const std::uint64_t file_start = kStart + p * 1000 * kPeriod;
    for (const char* topic : {"/scene/world", "/scene/vehicle", "/scene/path"}) {
      EXPECT_EQ(scan.static_times[topic], std::vector<std::uint64_t>{file_start})
          << topic << " once, at the start of part " << p;
    }
    EXPECT_EQ(scan.count["/tf"], 50U * 9) << "50 Hz for one second, 9 frames";
    EXPECT_EQ(scan.count["/scene/forces"], 50U);
    EXPECT_EQ(scan.trail_times.size(), 2U) << "2 Hz";
    for (const auto& [log_time, t] : scan.body) {
      const auto tick = static_cast<std::int64_t>((log_time - kStart) / kPeriod);
      EXPECT_EQ(tick % 20, 0) << "every 20th tick of 1 kHz";
      EXPECT_EQ(t.translation().x(), pose_of(tick, table.resolve("vehicle.body.position.x").index));
      EXPECT_EQ(t.translation().z(), pose_of(tick, table.resolve("vehicle.body.position.z").index));
      const Quaternion q = attitude(pose_of(tick, table.resolve("vehicle.body.roll").index),
                                    pose_of(tick, table.resolve("vehicle.body.pitch").index),
                                    pose_of(tick, table.resolve("vehicle.body.yaw").index));
      EXPECT_EQ(t.rotation().w(), q.w);
      EXPECT_EQ(t.rotation().x(), q.x);
      EXPECT_EQ(t.timestamp().seconds() * 1'000'000'000 + t.timestamp().nanos(),
                static_cast<std::int64_t>(log_time));
      ++bodies;
    }
  }
  EXPECT_EQ(bodies, 100U);
}

}  // namespace
}  // namespace hil::io::scene
