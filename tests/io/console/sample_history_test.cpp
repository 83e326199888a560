// The console's history (io/console/sample_history.hpp): exact values at the sample ticks,
// min/max over the ticks in between (a one-tick spike survives), the ring, lookups by tick.
#include "io/console/sample_history.hpp"

#include <gtest/gtest.h>

#include <array>
#include <cmath>

namespace hil::io::console {
namespace {

TEST(SampleHistory, SampleTicksAreTheRecordersWithTheEnvelopeOfTheTicksBetween) {
  SampleHistory h(2, 4, 100);
  for (std::int64_t k = 0; k <= 12; ++k) {
    const double spike = k == 6 ? 50.0 : 0.0;  // one tick, between the samples of 4 and 8
    const std::array<double, 2> v{static_cast<double>(k), spike};
    EXPECT_EQ(h.add_tick(k, v, 0.0), k % 4 == 0) << k;
  }
  ASSERT_EQ(h.end_seq(), 4U);  // ticks 0, 4, 8, 12
  EXPECT_EQ(h.tick(2), 8);
  EXPECT_EQ(h.values(2)[0], 8.0);  // exact at the tick
  EXPECT_EQ(h.minima(2)[0], 5.0);  // over ticks 5..8
  EXPECT_EQ(h.maxima(2)[0], 8.0);
  EXPECT_EQ(h.values(2)[1], 0.0);   // the spike is not at a sample tick…
  EXPECT_EQ(h.maxima(2)[1], 50.0);  // …but the envelope keeps it
  EXPECT_EQ(h.maxima(3)[1], 0.0);
}

TEST(SampleHistory, KeepsTheLastCapacitySamplesAndFindsThemByTick) {
  SampleHistory h(1, 2, 5);
  for (std::int64_t k = 0; k < 40; ++k) {
    const std::array<double, 1> v{static_cast<double>(k)};
    h.add_tick(k, v, static_cast<double>(k));
  }
  EXPECT_EQ(h.end_seq(), 20U);
  EXPECT_EQ(h.first_seq(), 15U);
  EXPECT_EQ(h.tick(15), 30);
  EXPECT_EQ(h.values(19)[0], 38.0);
  EXPECT_EQ(h.wall_ms(19), 38.0);
  EXPECT_EQ(h.seq_at_or_after(33), 17U);  // tick 34
  EXPECT_EQ(h.seq_at_or_after(0), 15U);   // older ones are gone
  EXPECT_EQ(h.seq_at_or_after(100), 20U);
}

TEST(SampleHistory, AGapStartsAFreshEnvelopeAndANanShows) {
  SampleHistory h(1, 4, 10);
  const std::array<double, 1> big{100.0}, small{1.0}, nan{std::nan("")};
  h.add_tick(1, big, 0);    // then ticks 2..7 were dropped by the tap
  h.add_tick(8, small, 0);  // the sample of 8 covers 5..8: 1's value is not in it
  EXPECT_EQ(h.maxima(0)[0], 1.0);
  h.add_tick(10, nan, 0);
  h.add_tick(12, small, 0);
  EXPECT_TRUE(std::isnan(h.maxima(1)[0]));
  EXPECT_TRUE(std::isnan(h.minima(1)[0]));
  EXPECT_EQ(h.values(1)[0], 1.0);
}

}  // namespace
}  // namespace hil::io::console
