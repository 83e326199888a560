// io/bus/bus_exchange.hpp: snapshots applied at the tick that reads them, timeouts counted in
// ticks with hold and safe values, ranges, restarts and gaps; io/bus/bus_log.hpp: what the
// task consumed, written and read back, replays the same channel values.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <limits>

#include "io/bus/bus_exchange.hpp"
#include "io/bus/bus_log.hpp"

namespace hil::io::bus {
namespace {

struct Fixture {
  rt::ChannelTable table;
  std::unique_ptr<BusExchange> task;
  std::unique_ptr<BusImage> image;
  std::unique_ptr<ImageInput> input;
  SnapshotTap tap{256};

  explicit Fixture(BusSpec spec) {
    (void)table.add({.name = "cmd.a", .unit = "m/s", .direction = rt::Direction::input});
    (void)table.add({.name = "cmd.b", .unit = "rad", .direction = rt::Direction::input});
    (void)table.add({.name = "cmd.park", .unit = "-", .direction = rt::Direction::input});
    (void)table.add({.name = "out.x", .unit = "m", .direction = rt::Direction::output});
    std::vector<BusProblem> problems;
    task = BusExchange::create(spec, table, problems);
    EXPECT_TRUE(problems.empty()) << problems.front().field << ": " << problems.front().message;
    table.freeze();
    image = std::make_unique<BusImage>(task->schema());
    input = std::make_unique<ImageInput>(*image);
    task->connect(image.get(), input.get());
    task->set_tap(&tap);
  }
  void tick(std::int64_t k) {
    task->read(k);
    task->write(k);
  }
  double get(const char* name) const { return table.get(table.resolve(name)); }
};

BusSpec spec(std::uint32_t timeout, std::uint32_t hold) {
  return {.name = "t",
          .regions = {{.name = "cmd",
                       .direction = RegionDirection::input,
                       .writer = "ctl",
                       .channels = {"cmd.a", "cmd.b"},
                       .timeout_ticks = timeout,
                       .hold_ticks = hold,
                       .safe = {{"cmd.a", 0.0}, {"cmd.park", 1.0}},
                       .ranges = {{.channel = "cmd.b", .min = -0.5, .max = 0.5, .clamp = true}}},
                      {.name = "out",
                       .direction = RegionDirection::output,
                       .writer = "hilsim",
                       .channels = {"out.x", "cmd.a"},
                       .every_ticks = 2}}};
}

TEST(BusExchangeTest, AppliesASnapshotAtTheTickThatReadsIt) {
  Fixture f(spec(0, 0));
  RegionWriter w(f.image->region(0), 7);
  f.tick(0);
  EXPECT_EQ(f.get("cmd.a"), 0.0);
  const double v[2] = {3.0, 0.25};
  w.publish(v, 100, 1);
  EXPECT_EQ(f.get("cmd.a"), 0.0) << "nothing changes between ticks";
  f.tick(1);
  EXPECT_EQ(f.get("cmd.a"), 3.0);
  EXPECT_EQ(f.get("cmd.b"), 0.25);
  EXPECT_EQ(f.get("bus.cmd.seq"), 1.0);
  EXPECT_EQ(f.task->counters(0).applied.load(), 1U);
  f.tick(2);
  EXPECT_EQ(f.task->counters(0).applied.load(), 1U) << "the same snapshot is applied once";
}

TEST(BusExchangeTest, TimesOutInTicksHoldsThenForcesTheSafeValues) {
  Fixture f(spec(10, 5));
  RegionWriter w(f.image->region(0), 7);
  const double v[2] = {3.0, 0.1};
  w.publish(v, 0, 1);
  f.tick(0);  // applied at 0: silent from here
  for (std::int64_t k = 1; k < 10; ++k) {
    f.tick(k);
    EXPECT_EQ(f.get("bus.cmd.timeout"), 0.0) << k;
  }
  f.tick(10);
  EXPECT_EQ(f.get("bus.cmd.timeout"), 1.0) << "exactly timeout_ticks after the last snapshot";
  EXPECT_EQ(f.get("cmd.a"), 3.0) << "held";
  for (std::int64_t k = 11; k < 15; ++k) {
    f.tick(k);
    EXPECT_EQ(f.get("cmd.a"), 3.0) << k;
  }
  f.tick(15);
  EXPECT_EQ(f.get("cmd.a"), 0.0) << "safe value after timeout + hold";
  EXPECT_EQ(f.get("cmd.park"), 1.0);
  EXPECT_EQ(f.task->counters(0).timeouts.load(), 1U);
  // Recovery on the first good snapshot
  w.publish(v, 1, 2);
  f.tick(16);
  EXPECT_EQ(f.get("bus.cmd.timeout"), 0.0);
  EXPECT_EQ(f.get("cmd.a"), 3.0);
}

TEST(BusExchangeTest, ASilentRegionTimesOutFromTheStart) {
  Fixture f(spec(4, 0));
  for (std::int64_t k = 0; k < 4; ++k) f.tick(k);
  EXPECT_EQ(f.get("bus.cmd.timeout"), 0.0);
  f.tick(4);
  EXPECT_EQ(f.get("bus.cmd.timeout"), 1.0);
  EXPECT_EQ(f.get("cmd.park"), 1.0);
}

TEST(BusExchangeTest, RejectsNonFiniteAndOutOfRangeAndClampsWhereAsked) {
  BusSpec s = spec(0, 0);
  s.regions[0].ranges.push_back({.channel = "cmd.a", .min = 0, .max = 10, .clamp = false});
  Fixture f(s);
  RegionWriter w(f.image->region(0), 7);
  const double good[2] = {1.0, 0.9};  // b clamps to 0.5
  w.publish(good, 0, 1);
  f.tick(0);
  EXPECT_EQ(f.get("cmd.b"), 0.5);
  EXPECT_EQ(f.task->counters(0).clamped.load(), 1U);
  const double nan[2] = {std::numeric_limits<double>::quiet_NaN(), 0.0};
  w.publish(nan, 1, 2);
  f.tick(1);
  const double far[2] = {11.0, 0.0};
  w.publish(far, 2, 3);
  f.tick(2);
  EXPECT_EQ(f.get("cmd.a"), 1.0) << "the previous values stay";
  EXPECT_EQ(f.get("bus.cmd.rejected"), 2.0);
  EXPECT_TRUE(std::isfinite(f.get("cmd.a")));
}

TEST(BusExchangeTest, CountsGapsRestartsAndATickGoingBack) {
  Fixture f(spec(0, 0));
  RegionWriter w(f.image->region(0), 7);
  const double v[2] = {1.0, 0.0};
  w.publish(v, 10, 1);
  f.tick(0);
  w.publish(v, 11, 1);
  w.publish(v, 12, 1);
  w.publish(v, 13, 1);  // two never seen
  f.tick(1);
  EXPECT_EQ(f.get("bus.cmd.lost"), 2.0);
  RegionWriter restarted(f.image->region(0), 8);  // a new session starts at 1 again
  restarted.publish(v, 0, 1);
  f.tick(2);
  EXPECT_EQ(f.get("bus.cmd.writer_restarts"), 1.0);
  EXPECT_EQ(f.get("bus.cmd.seq"), 1.0);
  restarted.publish(v, -5, 1);  // its tick goes backwards
  f.tick(3);
  EXPECT_EQ(f.get("bus.cmd.rejected"), 1.0);
}

TEST(BusExchangeTest, PublishesOutputRegionsEveryNthTick) {
  Fixture f(spec(0, 0));
  f.table.set(f.table.resolve("out.x"), 4.5);
  RegionSnapshot s;
  f.tick(0);
  ASSERT_TRUE(f.image->region(1).read(s, 1).ok);
  EXPECT_EQ(s.head.region_seq, 1U);
  EXPECT_EQ(s.head.tick, 0);
  EXPECT_EQ(s.values[0], 4.5);
  f.tick(1);
  ASSERT_TRUE(f.image->region(1).read(s, 1).ok);
  EXPECT_EQ(s.head.region_seq, 1U) << "every_ticks 2: not at tick 1";
  f.tick(2);
  ASSERT_TRUE(f.image->region(1).read(s, 1).ok);
  EXPECT_EQ(s.head.tick, 2);
  EXPECT_EQ(f.get("bus.out.seq"), 2.0);
}

TEST(BusExchangeTest, CreateRefusesWhatCannotWork) {
  rt::ChannelTable table;
  (void)table.add({.name = "cmd.a", .unit = "-", .direction = rt::Direction::input});
  (void)table.add({.name = "out.x", .unit = "-", .direction = rt::Direction::output});
  std::vector<BusProblem> problems;
  const BusSpec bad{
      .regions = {{.name = "a", .writer = "w", .channels = {"cmd.a", "out.x", "cmd.typo"}},
                  {.name = "b", .writer = "v", .channels = {"cmd.a"}}}};
  EXPECT_EQ(BusExchange::create(bad, table, problems), nullptr);
  ASSERT_EQ(problems.size(), 3U);
  EXPECT_EQ(problems[0].field, "regions[0].channels[1]");
  EXPECT_NE(problems[0].message.find("output"), std::string::npos);
  EXPECT_EQ(problems[1].field, "regions[0].channels[2]");
  EXPECT_NE(problems[1].message.find("cmd.typo"), std::string::npos);
  EXPECT_EQ(problems[2].field, "regions[1].channels[0]");
  EXPECT_NE(problems[2].message.find("already fed by regions[0]"), std::string::npos);
}

TEST(BusLogTest, WhatWasConsumedReplaysTheSameChannelValues) {
  // A run: snapshots arrive at irregular ticks, with a restart, a rejected value and a
  // timeout; every consumed snapshot is logged
  std::vector<std::vector<double>> run_values;
  std::string log(kBusLogHeader);
  log += '\n';
  {
    Fixture f(spec(6, 2));
    RegionWriter w(f.image->region(0), 0xabcdef);
    for (std::int64_t k = 0; k < 60; ++k) {
      if (k % 7 == 3) {
        const double v[2] = {0.1 * static_cast<double>(k) + 1.0 / 3.0, k == 24 ? 9.0 : 0.01 * k};
        w.publish(v, k, 1);
      }
      if (k == 40) w = RegionWriter(f.image->region(0), 0x1234);
      f.tick(k);
      run_values.emplace_back(f.table.values().begin(), f.table.values().end());
    }
    f.tap.drain([&](const ConsumedSnapshot& s) { append_bus_log_line(log, "cmd", s); });
  }
  const BusLog parsed = parse_bus_log(log);
  ASSERT_TRUE(parsed.bad_lines.empty()) << parsed.bad_lines.front();
  ASSERT_EQ(parsed.regions.size(), 1U);
  // Replay: no image, the recorded input
  rt::ChannelTable table;
  (void)table.add({.name = "cmd.a", .unit = "m/s", .direction = rt::Direction::input});
  (void)table.add({.name = "cmd.b", .unit = "rad", .direction = rt::Direction::input});
  (void)table.add({.name = "cmd.park", .unit = "-", .direction = rt::Direction::input});
  (void)table.add({.name = "out.x", .unit = "m", .direction = rt::Direction::output});
  std::vector<BusProblem> problems;
  auto task = BusExchange::create(spec(6, 2), table, problems);
  table.freeze();
  RecordedInput input(parsed, task->schema());
  task->connect(nullptr, &input);
  for (std::int64_t k = 0; k < 60; ++k) {
    task->read(k);
    task->write(k);
    for (std::size_t i = 0; i < table.size(); ++i) {
      ASSERT_EQ(std::bit_cast<std::uint64_t>(table.values()[i]),
                std::bit_cast<std::uint64_t>(run_values[static_cast<std::size_t>(k)][i]))
          << "tick " << k << " channel " << table.specs()[i].name;
    }
  }
}

TEST(BusLogTest, BadLinesAreReportedWithTheirNumber) {
  const BusLog log = parse_bus_log(
      "# hilsim bus.log 1\n"
      "5 cmd 00000000000000ab 1 5 0 1.5 2\n"
      "x cmd 00000000000000ab 2 6 0 1.5 2\n"
      "7 cmd zz 2 6 0 1.5 2\n"
      "8 cmd 00000000000000ab 3 7 0 1.5 two\n"
      "3 cmd 00000000000000ab 4 8 0 1 2\n"
      "9 cmd 00000000000000ab 5 9 0 1 2");  // no newline: cut by a kill, not an error
  ASSERT_EQ(log.bad_lines.size(), 4U);
  EXPECT_EQ(log.bad_lines[0].rfind("bus.log:3:", 0), 0U) << log.bad_lines[0];
  EXPECT_NE(log.bad_lines[3].find("backwards"), std::string::npos);
  ASSERT_EQ(log.regions.at("cmd").size(), 1U);
  EXPECT_EQ(log.regions.at("cmd")[0].snapshot.values[0], 1.5);
  EXPECT_EQ(log.last_tick, 5);
}

}  // namespace
}  // namespace hil::io::bus
