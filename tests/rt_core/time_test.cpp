#include "rt_core/time.hpp"

#include <gtest/gtest.h>

namespace hil::rt {
namespace {

TEST(Duration, ParsesEveryUnit) {
  EXPECT_EQ(parse_duration("500ns"), 500);
  EXPECT_EQ(parse_duration("250us"), 250 * kMicrosecond);
  EXPECT_EQ(parse_duration("1.5ms"), 1'500 * kMicrosecond);
  EXPECT_EQ(parse_duration("10s"), 10 * kSecond);
  EXPECT_EQ(parse_duration("2m"), 120 * kSecond);
}

TEST(Duration, RejectsWhatIsNotADuration) {
  for (const char* bad : {"", "250", "us", "-5ms", "5 ms", "5msx", "abc", "1e400s", "nan s"}) {
    EXPECT_FALSE(parse_duration(bad).has_value()) << bad;
  }
}

TEST(Duration, FormatsWithTheLargestReadableUnit) {
  EXPECT_EQ(format_duration(250 * kMicrosecond), "250us");
  EXPECT_EQ(format_duration(1'500 * kMicrosecond), "1.5ms");
  EXPECT_EQ(format_duration(10 * kSecond), "10s");
  EXPECT_EQ(format_duration(800), "800ns");
}

}  // namespace
}  // namespace hil::rt
