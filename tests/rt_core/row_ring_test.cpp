// The ring of rows from the RT thread (rt_core/row_ring.hpp): a row is a tick and a fixed
// number of values, whole or not at all; full, it drops and counts; the tick is exact.

#include "rt_core/row_ring.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <thread>
#include <vector>

namespace hil::rt {
namespace {

TEST(RowRing, ARowComesOutAsItWentInAndAFullRingDropsAndCounts) {
  RowRing ring(3, 2);
  EXPECT_EQ(ring.width(), 3U);
  EXPECT_EQ(ring.capacity(), 2U);
  EXPECT_TRUE(ring.try_push(std::numeric_limits<std::int64_t>::max(), std::vector{1.0, 2.0, 3.0}));
  EXPECT_TRUE(ring.try_push(-7, std::vector{4.0, 5.0, 6.0}));
  EXPECT_FALSE(ring.has_room());
  EXPECT_FALSE(ring.try_push(3, std::vector{7.0, 8.0, 9.0}));  // full
  EXPECT_FALSE(ring.try_push(3, std::vector{7.0}));            // not a row
  EXPECT_EQ(ring.dropped(), 2U);
  EXPECT_EQ(ring.rows_available(), 2U);

  std::int64_t tick = 0;
  std::vector<double> row(3);
  ASSERT_TRUE(ring.try_pop(tick, row));
  EXPECT_EQ(tick, std::numeric_limits<std::int64_t>::max());  // every bit of the tick
  EXPECT_EQ(row, (std::vector{1.0, 2.0, 3.0}));
  ASSERT_TRUE(ring.try_pop(tick, row));
  EXPECT_EQ(tick, -7);
  EXPECT_EQ(row, (std::vector{4.0, 5.0, 6.0}));
  EXPECT_FALSE(ring.try_pop(tick, row));
  EXPECT_EQ(ring.rows_free(), 2U);
}

TEST(RowRing, AConsumerOnAnotherThreadSeesEveryRowWholeAndInOrder) {
  constexpr std::int64_t kRows = 200'000;
  RowRing ring(4, 64);
  std::thread producer([&ring] {
    std::vector<double> row(4);
    for (std::int64_t k = 0; k < kRows;) {
      for (std::size_t i = 0; i < row.size(); ++i) row[i] = static_cast<double>(k * 4 + i);
      if (ring.has_room()) k += ring.try_push(k, row) ? 1 : 0;  // lossless: wait for room
    }
  });
  std::vector<double> row(4);
  std::int64_t expected = 0;
  while (expected < kRows) {
    std::int64_t tick = -1;
    if (!ring.try_pop(tick, row)) continue;
    ASSERT_EQ(tick, expected);
    for (std::size_t i = 0; i < row.size(); ++i) {
      ASSERT_EQ(row[i], static_cast<double>(tick * 4 + static_cast<std::int64_t>(i)));
    }
    ++expected;
  }
  producer.join();
  EXPECT_EQ(ring.dropped(), 0U);
}

}  // namespace
}  // namespace hil::rt
