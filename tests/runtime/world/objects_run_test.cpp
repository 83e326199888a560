// The shipped objects_crossing scenario in a recorded run (hilsim run, virtual time) and its
// replay: the lead vehicle starts at its time and follows its speed profile, the pedestrian
// starts at the tick the vehicle passes x = 3 m, the parked crate stays; the objects' channels
// and the moving ones' /scene/objects are in telemetry.mcap; `hilsim replay` is identical.

#include <gtest/gtest.h>

#include <map>
#include <set>
#include <string>

#include "io/record/mapped_file.hpp"
#include "io/record/mcap/mcap_reader.hpp"
#include "io/scene/foxglove/SceneUpdate.pb.h"

#include "rt_core/stage.hpp"
#include "runtime/rig.hpp"
#include "tests/support/recorded_run.hpp"
#include "tests/support/temp_dir.hpp"
#include "tools/session/replay/replay_session.hpp"
#include "tools/session/run/run_session.hpp"

namespace hil::session {
namespace {

/// The recording's channel names, message counts by topic, the ids of /scene/objects' entities.
struct Scan final : io::record::McapVisitor {
  void on_schema(const io::record::McapSchema& s) override {
    names.append(s.data.begin(), s.data.end());
  }
  void on_channel(const io::record::McapChannel& c) override {
    topics[c.id] = c.topic;
    for (const auto& [key, value] : c.metadata) names += key + "=" + value + "\n";
  }
  void on_message(const io::record::McapMessage& m) override {
    const std::string& topic = topics.at(m.channel_id);
    ++count[topic];
    if (topic == "/scene/objects") {
      foxglove::SceneUpdate u;
      ASSERT_TRUE(u.ParseFromArray(m.data.data(), static_cast<int>(m.data.size())));
      for (const foxglove::SceneEntity& e : u.entities()) entities.insert(e.id());
    }
  }
  std::map<std::uint16_t, std::string> topics;
  std::map<std::string, std::size_t> count;
  std::set<std::string> entities;
  std::string names;  ///< the schemas' and channels' text: the recorded channels' names
};

/// Records, per tick, what the objects' stage says and where the vehicle is.
class Watch final : public rt::Stage {
 public:
  explicit Watch(runtime::Rig& rig)
      : rig_(rig), x_(rig.table().resolve("vehicle.body.position.x")) {}
  void run(const rt::TickContext& c) noexcept override {
    const auto states = rig_.world_objects()->states();
    if (pedestrian_started < 0 && states[2].moving) {
      pedestrian_started = c.tick;
      vehicle_x_at_start = rig_.table().get(x_);
      vehicle_x_before = previous_x_;
    }
    previous_x_ = rig_.table().get(x_);
    if (c.tick == 12'000) lead_at_3s = states[1];  // 3 s: 2 s after its start
    crate_moved = crate_moved || states[0].x != 6.0 || states[0].moving;
  }
  std::int64_t pedestrian_started = -1;
  double vehicle_x_at_start = 0.0, vehicle_x_before = 0.0;
  models::ObjectState lead_at_3s;
  bool crate_moved = false;

 private:
  runtime::Rig& rig_;
  rt::ChannelId x_;
  double previous_x_ = 0.0;
};

TEST(ObjectsRun, TargetsStartAndMoveAsTheScenarioSaysAndReplayIdentically) {
  const config::testing::TempDir tmp;
  const auto dir = tmp.path() / "run";
  RunSpec o = testing::recorded_run(dir, "6s");
  o.rig = {.rig = "ravon", .scenario = HIL_SOURCE_DIR "/hil_rigs/scenarios/objects_crossing.pbtxt"};
  std::unique_ptr<Watch> watch;
  o.extra_stages = [&](runtime::TickPlan& plan, runtime::Rig& rig) {
    ASSERT_NE(rig.world_objects(), nullptr);
    ASSERT_EQ(rig.world_objects()->objects().size(), 3U);
    EXPECT_EQ(rig.world_objects()->objects()[2].name, "pedestrian");
    plan.add(runtime::Slot::judge, "watch", *(watch = std::make_unique<Watch>(rig)));
  };
  const int status = run_rig(o);
  ASSERT_TRUE(status == 0 || status == 4) << status;
  ASSERT_NE(watch, nullptr);

  // The pedestrian: at the first tick the vehicle is past x = 3 m (the vehicle's x of that tick)
  EXPECT_GT(watch->pedestrian_started, 0);
  EXPECT_GT(watch->vehicle_x_at_start, 3.0);
  EXPECT_LE(watch->vehicle_x_before, 3.0);
  // The lead vehicle, 2 s after its start at 1 m/s²: s = a·t²/2 = 2 m from x = 9, at 2 m/s
  EXPECT_NEAR(watch->lead_at_3s.x, 11.0, 1e-9);
  EXPECT_NEAR(watch->lead_at_3s.vx, 2.0, 1e-9);
  EXPECT_TRUE(watch->lead_at_3s.moving);
  EXPECT_FALSE(watch->crate_moved);

  // Recorded: the objects' channels, and the moving ones at the scene rate (as /scene/forces)
  const io::record::MappedFile file(dir / "telemetry.mcap");
  Scan scan;
  ASSERT_EQ(io::record::read_mcap(file.bytes(), scan).end, io::record::McapEnd::complete);
  for (const char* s :
       {"world.pedestrian.x", "world.lead_vehicle.speed", "world.parked_crate.yaw"}) {
    EXPECT_NE(scan.names.find(s), std::string::npos) << s;
  }
  EXPECT_GT(scan.count["/scene/objects"], 0U);
  EXPECT_EQ(scan.count["/scene/objects"], scan.count["/scene/forces"]);
  EXPECT_EQ(scan.entities, (std::set<std::string>{"object_lead_vehicle", "object_pedestrian"}))
      << "the moving ones; the crate is in /scene/world";

  ReplaySpec r = testing::replay_of(dir);
  EXPECT_EQ(replay(r), 0) << "the objects, started at the same ticks, replay identically";
}

}  // namespace
}  // namespace hil::session
