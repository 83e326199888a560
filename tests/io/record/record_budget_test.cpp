// The RT side of the recorder (push, push_event) allocates nothing (DESIGN.md §5). Links the
// allocation counter (tests/support), which replaces operator new, so it is a binary of its
// own. The counter counts every thread: the recorder thread is parked in a blocked write
// while the window is measured, so only the pushes run.

#include <gtest/gtest.h>

#include "io/record/telemetry_recorder.hpp"
#include "tests/io/record/recording_fixture.hpp"
#include "tests/support/allocation_counter.hpp"

namespace hil::io::record {
namespace {

TEST(RecordBudget, PushAndPushEventAllocateNothingWhetherQueuedDecimatedOrDropped) {
  const testing::VehicleTable table;
  auto owned = std::make_unique<testing::BlockingSink>();
  testing::BlockingSink& sink = *owned;
  TelemetryRecorder rec(table, std::move(owned),
                        {.tick_period_ns = 250'000, .ring_seconds = 1.0, .chunk_bytes = 1});
  std::vector<double> values(table.size(), 0.5);
  sink.arm();
  ASSERT_EQ(rec.push(0, values), PushResult::queued);
  ASSERT_TRUE(sink.wait_blocked(std::chrono::seconds(10)));

  std::uint64_t seen[3] = {};
  const std::uint64_t before = hil::testing::allocation_count();
  for (std::int64_t k = 1; k <= 40'000; ++k) {  // 10,000 recorded ticks: the ring overflows
    const PushResult r = rec.push(k, values);
    ++seen[static_cast<int>(r)];
    if (k % 1000 == 0) (void)rec.push_event(k, "event", "a fault applied to an output channel");
  }
  const std::uint64_t after = hil::testing::allocation_count();
  sink.release();
  rec.stop();

  EXPECT_EQ(after - before, 0U);
  EXPECT_GT(seen[static_cast<int>(PushResult::queued)], 0U);  // every path was taken
  EXPECT_EQ(seen[static_cast<int>(PushResult::decimated)], 30'000U);
  EXPECT_GT(seen[static_cast<int>(PushResult::dropped)], 0U);
  EXPECT_EQ(rec.counters().events_recorded, 40U);
}

}  // namespace
}  // namespace hil::io::record
