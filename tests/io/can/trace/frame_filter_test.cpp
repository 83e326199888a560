// candump-style id filters (hilsim play --ids), with the semantics of the kernel's CAN_RAW
// filters that candump sets: can_id & mask compared, EFF/RTR flag bits in can_id, inverse
// items, join.

#include "io/can/trace/frame_filter.hpp"

#include <gtest/gtest.h>

#include <string>

#include "tests/support/frame_helpers.hpp"

namespace hil::io::can {
namespace {

using test::make_frame;
using test::make_remote;

TEST(FrameFilter, IdAndMaskAsCandumpTakesThem) {
  const FrameFilter f = FrameFilter::parse("123:7FF,18FF0000:1FFF0000");
  EXPECT_TRUE(f.passes(make_frame(0x123, {})));
  EXPECT_FALSE(f.passes(make_frame(0x124, {})));
  EXPECT_TRUE(f.passes(make_frame(0x18FF1234, {}, kExtended)));
  EXPECT_FALSE(f.passes(make_frame(0x18FE1234, {}, kExtended)));
  EXPECT_TRUE(f.passes(make_remote(0x123, 2)));  // RTR is not in the mask
  // The mask 7FF does not look at the EFF flag: a 29-bit 0x123 passes too, as in candump.
  EXPECT_TRUE(f.passes(make_frame(0x123, {}, kExtended)));
}

TEST(FrameFilter, AMaskWithTheEffBitTellsElevenFromTwentyNineBitIds) {
  const FrameFilter eleven = FrameFilter::parse("123:C00007FF");  // EFF and RTR must be clear
  EXPECT_TRUE(eleven.passes(make_frame(0x123, {})));
  EXPECT_FALSE(eleven.passes(make_frame(0x123, {}, kExtended)));
  EXPECT_FALSE(eleven.passes(make_remote(0x123, 0)));
  const FrameFilter eff = FrameFilter::parse("00000123:9FFFFFFF");  // 8 digits set EFF
  EXPECT_TRUE(eff.passes(make_frame(0x123, {}, kExtended)));
  EXPECT_FALSE(eff.passes(make_frame(0x123, {})));
}

TEST(FrameFilter, InverseItemsAndJoin) {
  const FrameFilter not_123 = FrameFilter::parse("123~7FF");
  EXPECT_FALSE(not_123.passes(make_frame(0x123, {})));
  EXPECT_TRUE(not_123.passes(make_frame(0x200, {})));
  // OR by default: anything that is not 0x123, or is 0x123.
  EXPECT_TRUE(FrameFilter::parse("123~7FF,123:7FF").passes(make_frame(0x123, {})));
  // j: in 0x100..0x1FF and not 0x123.
  const FrameFilter joined = FrameFilter::parse("100:700,123~7FF,j");
  EXPECT_TRUE(joined.joined());
  EXPECT_TRUE(joined.passes(make_frame(0x1AB, {})));
  EXPECT_FALSE(joined.passes(make_frame(0x123, {})));
  EXPECT_FALSE(joined.passes(make_frame(0x223, {})));
}

TEST(FrameFilter, ErrorFramesPassOnlyWithoutFilters) {
  CanFrame error = make_frame(0x80, {0, 0, 0, 0, 0, 0, 0, 0}, kError);
  EXPECT_TRUE(FrameFilter().passes(error));
  EXPECT_FALSE(FrameFilter::parse("0:0").passes(error));
  EXPECT_TRUE(FrameFilter::parse("0:0").passes(make_frame(0x7FF, {})));
  EXPECT_EQ(FrameFilter::parse("0:FFFFFFFF").items()[0].mask, 0xDFFFFFFFU);  // ERR cleared
}

TEST(FrameFilter, BadItemsAreNamedWithTheirColumn) {
  const auto message = [](const char* text) {
    try {
      (void)FrameFilter::parse(text);
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_NE(message("123:7FF,45G:7FF").find("item '45G:7FF' at column 9: the ID is not 1-8 hex"),
            std::string::npos)
      << message("123:7FF,45G:7FF");
  EXPECT_NE(message("123").find("item '123' at column 1: no ':' or '~'"), std::string::npos);
  EXPECT_NE(message("123:").find("at column 5: the MASK is not 1-8 hex digits"), std::string::npos);
  EXPECT_NE(message("123:7FF,").find("item '' at column 9"), std::string::npos);
  EXPECT_NE(message("j").find("no ID:MASK item"), std::string::npos);
  EXPECT_NE(message("123456789:7FF").find("the ID is not 1-8 hex digits"), std::string::npos);
}

}  // namespace
}  // namespace hil::io::can
