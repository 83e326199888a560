// The objects' stage's RT budget (DESIGN.md §5): 40 objects — static ones, targets started by
// time and by a condition, through their start, their whole path and their stop — move
// without one heap allocation or minor page fault on the tick. Links the allocation counter
// (tests/support), which replaces operator new: a binary of its own.

#include <gtest/gtest.h>

#include <fmt/format.h>

#include <chrono>
#include <cstdio>

#include "models/terrain/terrain_flat.hpp"
#include "rt_core/channel_table.hpp"
#include "runtime/world/world_objects_stage.hpp"
#include "tests/support/allocation_counter.hpp"

namespace hil::runtime {
namespace {

/// 40 objects: 10 static, 10 targets started by time, 20 by the condition "scenario.go > 0".
std::vector<models::MovingObjectSpec> forty_objects() {
  std::vector<models::MovingObjectSpec> objects;
  for (int i = 0; i < 40; ++i) {
    models::MovingObjectSpec o;
    o.object.name = fmt::format("o{}", i);
    o.start = {.x = i * 1.0, .y = 2.0};
    if (i % 4 != 0) {  // a 3-point path
      o.path = {{.x = 0, .y = i * 1.0, .speed = 3},
                {.x = 5, .y = i * 1.0, .speed = 1},
                {.x = 5, .y = i + 5.0, .speed = 1}};
      if (i % 4 == 1) {
        o.start_s = 0.5 + 0.01 * i;
      } else {
        o.start_when = "scenario.go > 0";
      }
    }
    objects.push_back(std::move(o));
  }
  return objects;
}

constexpr double kPeriod = 0.00025;
constexpr std::int64_t kTicks = 60'000;  // 15 s: every target starts and stops

/// A table with the trigger and a stage of forty_objects() on it, bound.
struct World {
  rt::ChannelTable table;
  rt::ChannelId go =
      table.add({.name = "scenario.go", .unit = "-", .direction = rt::Direction::input});
  WorldObjectsStage stage;
  explicit World(const models::Terrain& terrain) : stage(forty_objects(), terrain, table, kPeriod) {
    table.freeze();
    stage.bind(table);
  }
  void tick(std::int64_t k) {
    if (k == 8'000) table.set(go, 1.0);
    stage.run({.tick = k, .time = k * 250'000, .dt = 250'000, .dt_s = kPeriod});
  }
};

TEST(WorldObjectsBudget, FortyObjectsMoveWithoutAllocating) {
  const models::FlatTerrain terrain({.z0 = 0.5});
  {  // every code path once (the code's pages faulted in), on a world of its own
    World warm(terrain);
    for (std::int64_t k = 0; k < kTicks; ++k) warm.tick(k);
  }
  World world(terrain);
  world.tick(0);  // its data's pages touched once
  const long faults_before = testing::thread_minor_faults();
  const auto start = std::chrono::steady_clock::now();
  const std::uint64_t allocations = testing::allocations_in([&] {
    for (std::int64_t k = 1; k < kTicks; ++k) world.tick(k);
  });
  const double per_tick_us =
      std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start).count() /
      static_cast<double>(kTicks - 1);
  const long faults = testing::thread_minor_faults() - faults_before;
  EXPECT_EQ(allocations, 0U);
  if (testing::kPageFaultsAreMeaningful) {
    EXPECT_EQ(faults, 0);
  }
  std::printf("40 objects (30 moving): %.2f us a tick\n", per_tick_us);
  // They did move, and stopped at their ends
  const auto states = world.stage.states();
  EXPECT_EQ(states[1].moving, false);
  EXPECT_DOUBLE_EQ(states[1].y, 6.0);
  EXPECT_DOUBLE_EQ(states[2].y, 7.0);
  EXPECT_DOUBLE_EQ(states[2].z, 0.5);
}

}  // namespace
}  // namespace hil::runtime
