#include "rt_core/channel_table.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <thread>

namespace hil::rt {
namespace {

TEST(ChannelTable, ResolvesNamesToStableIdsAndStoresValuesContiguously) {
  ChannelTable t;
  const ChannelId speed = t.add({.name = "vehicle.wheel.fl.speed", .unit = "rad/s"});
  const ChannelId ref = t.add({.name = "vehicle.wheel.fl.speed_ref",
                               .unit = "rad/s",
                               .direction = Direction::input,
                               .initial = 2.5});
  t.freeze();

  EXPECT_EQ(t.resolve("vehicle.wheel.fl.speed"), speed);
  EXPECT_EQ(t.resolve("vehicle.wheel.fl.speed_ref"), ref);
  EXPECT_EQ(t.get(ref), 2.5);
  t.set(speed, 7.0);
  EXPECT_EQ(t.values()[speed.index], 7.0);
  EXPECT_EQ(&t.values()[1], &t.values()[0] + 1);
  EXPECT_EQ(t.spec(ref).direction, Direction::input);
}

TEST(ChannelTable, RejectsBadNamesDuplicatesMissingUnitsAndLateAdds) {
  ChannelTable t;
  EXPECT_THROW(t.add({.name = "Vehicle.Speed", .unit = "m/s"}), std::invalid_argument);
  EXPECT_THROW(t.add({.name = "vehicle..speed", .unit = "m/s"}), std::invalid_argument);
  EXPECT_THROW(t.add({.name = "vehicle.speed.", .unit = "m/s"}), std::invalid_argument);
  EXPECT_THROW(t.add({.name = "vehicle.1speed", .unit = "m/s"}), std::invalid_argument);
  EXPECT_THROW(t.add({.name = "vehicle.speed", .unit = ""}), std::invalid_argument);
  t.add({.name = "vehicle.speed", .unit = "m/s"});
  EXPECT_THROW(t.add({.name = "vehicle.speed", .unit = "m/s"}), std::invalid_argument);
  t.freeze();
  EXPECT_THROW(t.add({.name = "vehicle.late", .unit = "-"}), std::invalid_argument);
}

TEST(ChannelTable, UnknownNameErrorSuggestsTheClosestChannel) {
  ChannelTable t;
  t.add({.name = "vehicle.battery.voltage", .unit = "V"});
  t.add({.name = "rt.loop.overruns", .unit = "-"});
  try {
    (void)t.resolve("vehicle.battery.volts");
    FAIL() << "expected std::out_of_range";
  } catch (const std::out_of_range& e) {
    EXPECT_STREQ(
        e.what(),
        "unknown channel 'vehicle.battery.volts'; did you mean 'vehicle.battery.voltage'?");
  }
  EXPECT_FALSE(t.find("nope").has_value());
}

TEST(ChannelTable, SnapshotCarriesTheTickAndAConsistentSetOfValues) {
  ChannelTable t;
  const ChannelId a = t.add({.name = "a", .unit = "-"});
  const ChannelId b = t.add({.name = "b", .unit = "-"});
  t.freeze();
  ChannelSnapshot snap;
  t.read_snapshot(snap);
  EXPECT_EQ(snap.tick(), -1);

  // Writer keeps b == -a; a reader must never see a torn pair.
  std::atomic<bool> done{false};
  std::thread writer([&] {
    for (std::int64_t k = 0; k < 200'000; ++k) {
      t.set(a, static_cast<double>(k));
      t.set(b, -static_cast<double>(k));
      t.publish(k);
    }
    done.store(true, std::memory_order_release);
  });
  std::int64_t last_tick = -1;
  while (!done.load(std::memory_order_acquire)) {
    t.read_snapshot(snap);
    ASSERT_EQ(snap[a], -snap[b]);
    if (snap.tick() >= 0) {
      ASSERT_EQ(snap[a], static_cast<double>(snap.tick()));
    }
    ASSERT_GE(snap.tick(), last_tick);
    last_tick = snap.tick();
  }
  writer.join();
  t.read_snapshot(snap);
  EXPECT_EQ(snap.tick(), 199'999);
}

}  // namespace
}  // namespace hil::rt
