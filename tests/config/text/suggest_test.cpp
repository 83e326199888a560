#include "config/text/suggest.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace hil::config {
namespace {

const std::vector<std::string> kExecutiveFields{"period_us", "priority", "cpu", "lock_memory",
                                                "hold_dma_latency"};

TEST(EditDistance, CountsInsertionsDeletionsAndSubstitutions) {
  EXPECT_EQ(edit_distance("kitten", "sitting"), 3U);
  EXPECT_EQ(edit_distance("", "abc"), 3U);
  EXPECT_EQ(edit_distance("same", "same"), 0U);
}

TEST(ClosestName, SuggestsTyposAndPrefixes) {
  EXPECT_EQ(closest_name("perod_us", kExecutiveFields), "period_us");
  EXPECT_EQ(closest_name("period", kExecutiveFields), "period_us");
  EXPECT_EQ(closest_name("cpus", kExecutiveFields), "cpu");
  EXPECT_EQ(closest_name("lock_memroy", kExecutiveFields), "lock_memory");
}

TEST(ClosestName, StaysSilentWhenNothingIsClose) {
  EXPECT_EQ(closest_name("speed", kExecutiveFields), std::nullopt);
  EXPECT_EQ(closest_name("p", kExecutiveFields), std::nullopt);
  EXPECT_EQ(closest_name(std::string(1000, 'x'), kExecutiveFields), std::nullopt);
}

}  // namespace
}  // namespace hil::config
