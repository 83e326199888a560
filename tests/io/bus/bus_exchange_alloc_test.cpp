// The bus task on the RT path (DESIGN.md §5): reading 168-channel input regions through the
// latch, checking, applying, timing out, publishing output regions and recording what was
// consumed allocate nothing and fault in no page after warm-up.

#include <gtest/gtest.h>

#include <fmt/format.h>

#include <string>
#include <vector>

#include "io/bus/bus_exchange.hpp"
#include "tests/support/allocation_counter.hpp"

namespace hil::io::bus {
namespace {

TEST(BusExchangeBudget, ReadAndWriteAllocateNothingAndFaultNoPage) {
  rt::ChannelTable table;
  BusSpec spec{.name = "budget"};
  RegionSpec in{.name = "cmd", .writer = "ctl", .timeout_ticks = 50, .safe = {}};
  RegionSpec out{.name = "state", .direction = RegionDirection::output, .writer = "hilsim"};
  for (std::size_t i = 0; i < kMaxRegionValues; ++i) {
    in.channels.push_back(fmt::format("in.c{}", i));
    out.channels.push_back(fmt::format("out.c{}", i));
    (void)table.add({.name = in.channels.back(), .unit = "-", .direction = rt::Direction::input});
    (void)table.add({.name = out.channels.back(), .unit = "-"});
  }
  in.safe.emplace_back("in.c0", 0.0);
  in.ranges.push_back({.channel = "in.c1", .min = -1e9, .max = 1e9, .clamp = true});
  spec.regions = {in, out};
  std::vector<BusProblem> problems;
  auto task = BusExchange::create(spec, table, problems);
  ASSERT_NE(task, nullptr);
  table.freeze();
  BusImage image(task->schema());
  ImageInput input(image);
  task->connect(&image, &input);
  SnapshotTap tap(256);  // drained every tick below, as the recorder thread would
  task->set_tap(&tap);
  RegionWriter writer(image.region(0), 99);
  std::vector<double> values(kMaxRegionValues, 1.5);
  const auto tick = [&](std::int64_t k) {
    // The co-simulator writes every other tick for a while, then is silent (timeout)
    if (k % 2 == 0 && (k % 4000) < 3000) writer.publish(values.data(), k, 1);
    task->read(k);
    task->write(k);
    tap.drain([](const ConsumedSnapshot&) {});
  };
  for (std::int64_t k = 0; k < 1000; ++k) tick(k);
  const long faults_before = hil::testing::thread_minor_faults();
  const std::uint64_t n = hil::testing::allocations_in([&] {
    for (std::int64_t k = 1000; k < 11'000; ++k) tick(k);
  });
  const long faults = hil::testing::thread_minor_faults() - faults_before;
  EXPECT_EQ(n, 0U);
  if (hil::testing::kPageFaultsAreMeaningful) {
    EXPECT_EQ(faults, 0);
  }
  EXPECT_GE(task->counters(0).timeouts.load(), 2U);
  EXPECT_GT(task->counters(0).applied.load(), 4000U);
  EXPECT_EQ(task->counters(1).applied.load(), 11'000U);
}

}  // namespace
}  // namespace hil::io::bus
