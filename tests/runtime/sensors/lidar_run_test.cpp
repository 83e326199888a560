// A recorded run with the RAVON's roof VLP-16 (hil_rigs/ravon/perception.pbtxt) among the
// objects_crossing scenario's objects (hilsim run, virtual time), and its replay: the packets
// at the sensor's rate, one foxglove.PointCloud a revolution on /lidar/roof in telemetry.mcap,
// some of its points on the objects, and `hilsim replay` identical (the lidar's channels,
// digest included, compared bit for bit).
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <map>
#include <string>
#include <vector>

#include "io/record/mapped_file.hpp"
#include "io/record/mcap/mcap_reader.hpp"
#include "io/scene/foxglove/PointCloud.pb.h"
#include "rt_core/stage.hpp"
#include "runtime/rig.hpp"
#include "tests/support/recorded_run.hpp"
#include "tests/support/temp_dir.hpp"
#include "tools/session/replay/replay_session.hpp"
#include "tools/session/run/run_session.hpp"

namespace hil::session {
namespace {

struct Clouds final : io::record::McapVisitor {
  void on_schema(const io::record::McapSchema&) override {}
  void on_channel(const io::record::McapChannel& c) override { topics[c.id] = c.topic; }
  void on_message(const io::record::McapMessage& m) override {
    if (topics.at(m.channel_id) != "/lidar/roof") return;
    foxglove::PointCloud cloud;
    ASSERT_TRUE(cloud.ParseFromArray(m.data.data(), static_cast<int>(m.data.size())));
    clouds.push_back(std::move(cloud));
  }
  std::map<std::uint16_t, std::string> topics;
  std::vector<foxglove::PointCloud> clouds;
};

/// The lidar's packets channel at the last tick.
class Watch final : public rt::Stage {
 public:
  explicit Watch(runtime::Rig& rig)
      : table_(rig.table()), packets_(rig.table().resolve("sensor.lidar.roof.packets")) {}
  void run(const rt::TickContext&) noexcept override { packets = table_.get(packets_); }
  double packets = 0.0;

 private:
  const rt::ChannelTable& table_;
  rt::ChannelId packets_;
};

TEST(LidarRun, RecordedCloudsAndPacketsReplayIdentically) {
  const config::testing::TempDir tmp;
  const auto dir = tmp.path() / "run";
  const auto overlay = tmp.path() / "none.pbtxt";
  {  // nothing on the network from a test: the overlay's lidar with uri "none"
    std::FILE* f = std::fopen(overlay.c_str(), "w");
    std::fputs(
        "range_sensors { lidars { name: \"roof\" preset: VLP16 rotation_hz: 10 "
        "mount { x: 0.2 z: 0.6 } range_noise_m: 0.01 uri: \"none\" } }\n",
        f);
    std::fclose(f);
  }
  RunSpec o = testing::recorded_run(dir, "3s");
  o.rig = {.rig = "ravon",
           .overlays = {HIL_SOURCE_DIR "/hil_rigs/ravon/perception.pbtxt", overlay.string()},
           .scenario = HIL_SOURCE_DIR "/hil_rigs/scenarios/objects_crossing.pbtxt"};
  std::unique_ptr<Watch> watch;
  o.extra_stages = [&](runtime::TickPlan& plan, runtime::Rig& rig) {
    ASSERT_EQ(rig.lidars().size(), 1U);
    plan.add(runtime::Slot::judge, "watch", *(watch = std::make_unique<Watch>(rig)));
  };
  const int status = run_rig(o);
  ASSERT_TRUE(status == 0 || status == 4) << status;
  ASSERT_NE(watch, nullptr);
  // Packets whose window ended by 3 s: 3 s × 753.5/s
  EXPECT_NEAR(watch->packets, 3.0 / 1327.104e-6, 1.0);

  const io::record::MappedFile file(dir / "telemetry.mcap");
  Clouds scan;
  ASSERT_EQ(io::record::read_mcap(file.bytes(), scan).end, io::record::McapEnd::complete);
  // 29 revolutions completed by 3 s (the 30th ends with the run); a few at the end may not
  // have been written before the recorder stopped
  EXPECT_GE(scan.clouds.size(), 27U);
  std::size_t above_ground = 0;
  for (std::size_t i = 0; i < scan.clouds.size(); ++i) {
    const foxglove::PointCloud& c = scan.clouds[i];
    EXPECT_EQ(c.frame_id(), "lidar_roof");
    ASSERT_EQ(c.point_stride(), 16U);
    ASSERT_EQ(c.fields_size(), 4);
    EXPECT_EQ(c.fields(3).name(), "intensity");
    if (i > 0) {  // one a revolution: 100 ms apart
      const double dt =
          static_cast<double>(c.timestamp().seconds() - scan.clouds[i - 1].timestamp().seconds()) +
          (c.timestamp().nanos() - scan.clouds[i - 1].timestamp().nanos()) * 1e-9;
      EXPECT_NEAR(dt, 0.1, 1e-6);
    }
    const std::string& data = c.data();
    ASSERT_GT(data.size(), 16U * 5000);
    for (std::size_t p = 0; p + 16 <= data.size(); p += 16) {
      float z = 0;
      std::memcpy(&z, data.data() + p + 8, 4);
      // Ground returns lie ~mount height + CG height below the sensor; the objects stand up
      if (z > -0.5F) ++above_ground;
    }
  }
  EXPECT_GT(above_ground, 100U) << "the scenario's objects are seen";

  ReplaySpec r = testing::replay_of(dir);
  EXPECT_EQ(replay(r), 0) << "the lidar's packets (their digests) replay identically";
}

}  // namespace
}  // namespace hil::session
