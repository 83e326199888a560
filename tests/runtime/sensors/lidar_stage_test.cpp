// The lidar in the tick (runtime/sensors/lidar_stage.hpp): the packets whose windows start in
// a tick are measured from that tick's pose and taken when their window has ended; two stages
// with the same seed produce the same packets; a replay following a real-time run's events
// (late jobs) takes the packets at the ticks the run took them; the console's live consumer
// sees the newest whole revolution while it wants clouds.
#include "runtime/sensors/lidar_stage.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <thread>
#include <vector>

#include "models/terrain/terrain_flat.hpp"

namespace hil::runtime {
namespace {

constexpr std::int64_t kPeriodNs = 250'000;

/// A lidar on a vehicle standing still at 1 m (its pose channels written by hand).
struct Bench {
  explicit Bench(std::uint64_t seed = 5) {
    for (const char* n :
         {"vehicle.body.position.x", "vehicle.body.position.y", "vehicle.body.position.z",
          "vehicle.body.roll", "vehicle.body.pitch", "vehicle.body.yaw"}) {
      (void)table.add({.name = n, .unit = "-"});
    }
    config::LidarSpec spec{
        .name = "roof", .mount = {.position = {0.0, 0.0, 0.8}}, .record_points = true};
    spec.params.range_noise_m = 0.02;
    spec.params.dropout = 0.1;
    stage = std::make_unique<LidarStage>(spec, terrain, seed, table, kPeriodNs, false);
    table.freeze();
    table.set(table.resolve("vehicle.body.position.z"), 1.0);
    stage->bind(table, nullptr);
    packets = table.resolve("sensor.lidar.roof.packets");
    digest = table.resolve("sensor.lidar.roof.digest");
    returns = table.resolve("sensor.lidar.roof.returns");
    late = table.resolve("sensor.lidar.roof.late");
  }
  void tick(std::int64_t k) {
    stage->run({.tick = k, .time = k * kPeriodNs, .dt = kPeriodNs, .dt_s = 250e-6});
  }
  std::shared_ptr<const models::Terrain> terrain =
      std::make_shared<models::FlatTerrain>(models::FlatTerrainParams{});
  rt::ChannelTable table;
  std::unique_ptr<LidarStage> stage;
  rt::ChannelId packets, digest, returns, late;
};

TEST(LidarStage, PacketsAreTakenWhenTheirFiringWindowHasEnded) {
  Bench b;
  // Packet 0's window is [0, 1327.104 µs): due at tick 6 (1.5 ms), the first tick after it
  for (std::int64_t k = 0; k < 6; ++k) {
    b.tick(k);
    EXPECT_EQ(b.table.get(b.packets), 0.0) << k;
  }
  b.tick(6);
  EXPECT_EQ(b.table.get(b.packets), 1.0);
  EXPECT_NE(b.table.get(b.digest), 0.0);
  // 1 s: 753.5 windows start; those ended by tick 4000's time are taken
  for (std::int64_t k = 7; k <= 4000; ++k) b.tick(k);
  EXPECT_EQ(b.table.get(b.packets), 753.0);  // packet 753 ends at 1000.2 ms: tick 4001
  // Ground rings of a sensor 1.8 m up: 7 downward beams × 1808 firings, 10 % dropped
  EXPECT_NEAR(b.table.get(b.returns), 7 * 1808.4 * 0.9, 7 * 1808.4 * 0.03);
  EXPECT_EQ(b.table.get(b.late), 0.0);
  // Its point clouds, once packet 753 (whose last firings begin revolution 10) is taken — and
  // packet 754, due at tick 4008:
  // revolutions 0…9 completed; the first four fill the worker's buffers (nobody drained them),
  // the other six were dropped and counted
  for (std::int64_t k = 4001; k <= 4010; ++k) b.tick(k);
  EXPECT_EQ(b.table.get(b.packets), 755.0);
  int clouds = 0;
  while (const LidarCloud* c = b.stage->worker()->take_cloud()) {
    EXPECT_EQ(c->revolution, clouds);
    ++clouds;
    EXPECT_NEAR(static_cast<double>(c->points), 7 * 1808.4 * 0.9, 7 * 1808.4 * 0.03);
    for (std::size_t i = 0; i < c->points; ++i) {
      ASSERT_NEAR(c->xyzi[i * 4 + 2], -1.8, 0.1) << "the ground, 1.8 m under the sensor";
    }
    b.stage->worker()->give_back(c);
  }
  EXPECT_EQ(clouds, 4);
  EXPECT_EQ(b.stage->worker()->clouds_dropped(), 6U);
}

TEST(LidarStage, TheLiveConsumerSeesTheNewestWholeRevolutionWhileItWantsClouds) {
  Bench b;
  LidarWorker& w = *b.stage->worker();
  // Nobody wants them: nothing is collected for the live consumer
  for (std::int64_t k = 0; k < 2000; ++k) b.tick(k);  // 0.5 s: revolution 5 in progress
  EXPECT_EQ(w.latest_cloud(), nullptr);
  // Wanted from within revolution 5: revolutions 6…9 are collected whole (the recorder's ring
  // has been full since revolution 4: the live path has buffers of its own); the newest only
  w.want_live(true);
  for (std::int64_t k = 2000; k <= 4010; ++k) b.tick(k);
  const LidarCloud* c = w.latest_cloud();
  ASSERT_NE(c, nullptr);
  EXPECT_EQ(c->revolution, 9);
  EXPECT_EQ(c->end_ns, 1'000'000'000);  // 10 Hz: revolution 9 ends at 1 s
  EXPECT_EQ(static_cast<double>(c->points), b.table.get(b.returns)) << "revolution 9's returns";
  for (std::size_t i = 0; i < c->points; ++i) {
    ASSERT_NEAR(c->xyzi[i * 4 + 2], -1.8, 0.1) << "the ground, 1.8 m under the sensor";
  }
  EXPECT_EQ(w.latest_cloud(), nullptr) << "nothing newer since";
}

TEST(LidarStage, TheSameSeedGivesTheSamePacketsAnotherSeedOthers) {
  Bench a(5), same(5), other(6);
  std::vector<double> da, ds, dother;
  for (std::int64_t k = 0; k < 2000; ++k) {
    for (Bench* b : {&a, &same, &other}) b->tick(k);
    da.push_back(a.table.get(a.digest));
    ds.push_back(same.table.get(same.digest));
    dother.push_back(other.table.get(other.digest));
  }
  EXPECT_EQ(da, ds);
  EXPECT_NE(da, dother);
}

TEST(LidarStage, AReplayTakesLateJobsAtTheTicksTheRunTookThem) {
  // The run: job 3 (packet 2, due at tick 16) was late at ticks 16 and 17, taken at 18
  Bench replay;
  replay.stage->follow({{.tick = 16, .taken = 3}, {.tick = 17, .taken = 3}});
  Bench on_time;
  for (std::int64_t k = 0; k <= 20; ++k) {
    replay.tick(k);
    on_time.tick(k);
    const double expected = on_time.table.get(on_time.packets) - ((k == 16 || k == 17) ? 1 : 0);
    EXPECT_EQ(replay.table.get(replay.packets), expected) << k;
  }
  EXPECT_EQ(replay.table.get(replay.late), 1.0);
  EXPECT_EQ(replay.table.get(replay.digest), on_time.table.get(on_time.digest));
}

}  // namespace
}  // namespace hil::runtime

namespace hil::runtime {
namespace {

TEST(LidarStage, InARealTimeRunTheWorkerPollsAndKeepsUp) {
  Bench b;
  b.stage->set_realtime(true);
  // Paced as a real-time loop: 250 µs a tick
  for (std::int64_t k = 0; k < 400; ++k) {
    b.tick(k);
    std::this_thread::sleep_for(std::chrono::microseconds(250));
  }
  EXPECT_GE(b.stage->packets(), 70U);  // 100 ms: 75 windows, late ones taken a tick later
  EXPECT_EQ(b.stage->lost(), 0U);
}

}  // namespace
}  // namespace hil::runtime
