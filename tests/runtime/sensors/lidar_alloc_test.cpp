// The lidar stage's RT budget (DESIGN.md §5): 20 s of ticks at 250 µs with a VLP-16 on a
// moving vehicle among 30 objects — packets handed to the worker, taken when due, posted to
// the UDP sender, the point clouds drained by a consumer — without one heap allocation or
// minor page fault on the RT thread. A binary of its own (the allocation counter replaces
// operator new).
#include <gtest/gtest.h>

#include <fmt/format.h>

#include "models/terrain/terrain_bumps.hpp"
#include "rt_core/channel_table.hpp"
#include "runtime/sensors/lidar_stage.hpp"
#include "runtime/world/world_objects_stage.hpp"
#include "tests/support/allocation_counter.hpp"

namespace hil::runtime {
namespace {

TEST(LidarBudget, PacketsHandedTakenAndSentWithoutAllocating) {
  auto terrain = std::make_shared<models::BumpsTerrain>(
      models::BumpsTerrainParams{.amplitude_x = 0.1, .wavelength_x = 4.0});
  rt::ChannelTable table;
  for (const char* n :
       {"vehicle.body.position.x", "vehicle.body.position.y", "vehicle.body.position.z",
        "vehicle.body.roll", "vehicle.body.pitch", "vehicle.body.yaw"}) {
    (void)table.add({.name = n, .unit = "-", .direction = rt::Direction::input});
  }
  std::vector<models::MovingObjectSpec> objects;
  for (int i = 0; i < 30; ++i) {
    models::MovingObjectSpec o;
    o.object.name = fmt::format("o{}", i);
    o.object.shape = static_cast<models::ObjectShape>(i % 3);
    o.start = {.x = 4.0 + 2.0 * i, .y = (i % 5) - 2.0};
    objects.push_back(std::move(o));
  }
  constexpr double kPeriod = 0.00025;
  WorldObjectsStage world(std::move(objects), *terrain, table, kPeriod);
  config::LidarSpec spec{
      .name = "roof", .mount = {.position = {0.3, 0.0, 1.2}}, .record_points = true};
  spec.params.range_noise_m = 0.01;
  spec.params.dropout = 0.05;
  // Sent to the discard port of loopback: the sender thread's datagrams go nowhere
  spec.uri = "udp://127.0.0.1:9";
  LidarStage lidar(spec, terrain, 11, table, 250'000, true);
  table.freeze();
  world.bind(table);
  lidar.bind(table, &world);
  const rt::ChannelId x = table.resolve("vehicle.body.position.x");
  const rt::ChannelId z = table.resolve("vehicle.body.position.z");
  const rt::ChannelId yaw = table.resolve("vehicle.body.yaw");

  const auto tick = [&](std::int64_t k) {
    const rt::TickContext c{.tick = k, .time = k * 250'000, .dt = 250'000, .dt_s = kPeriod};
    table.set(x, 2.0 * kPeriod * static_cast<double>(k));  // 2 m/s
    table.set(z, 0.8);
    table.set(yaw, 0.01 * std::sin(1e-3 * static_cast<double>(k)));
    world.run(c);
    lidar.run(c);
  };
  std::uint64_t clouds = 0;
  const auto drain = [&] {  // the recorder's side, off the RT thread's count
    while (const LidarCloud* c = lidar.worker()->take_cloud()) {
      ++clouds;
      lidar.worker()->give_back(c);
    }
  };
  constexpr std::int64_t kWarmUp = 8'000;  // 2 s: every slot and buffer touched
  for (std::int64_t k = 0; k < kWarmUp; ++k) {
    tick(k);
    if (k % 200 == 0) drain();
  }
  const long faults_before = testing::thread_minor_faults();
  std::uint64_t allocations = 0;
  for (std::int64_t k = kWarmUp; k < 80'000; ++k) {
    allocations += testing::allocations_in([&] { tick(k); });
    if (k % 200 == 0) drain();  // every 50 ms, as the recorder's samples
  }
  const long faults = testing::thread_minor_faults() - faults_before;
  EXPECT_EQ(allocations, 0U);
  if (testing::kPageFaultsAreMeaningful) {
    EXPECT_LE(faults, 0);
  }
  EXPECT_GE(lidar.packets(), 15'000U);  // 18 s and the warm-up: 20 s × 753.5
  EXPECT_EQ(lidar.late(), 0U);          // not real-time: the tick waits for the worker
  EXPECT_GE(clouds, 195U);
}

}  // namespace
}  // namespace hil::runtime
