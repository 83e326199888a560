// UDS messages as hex text (io/can/uds/uds_hex.hpp): both ways, and what is refused.
#include "io/can/uds/uds_hex.hpp"

#include <gtest/gtest.h>

#include <array>
#include <stdexcept>

namespace hil::io::can::uds {
namespace {

using Bytes = std::vector<std::uint8_t>;

TEST(UdsHex, ReadsPairsOfEitherCaseWithSpacesAnywhere) {
  EXPECT_EQ(parse_hex_bytes("22F190"), (Bytes{0x22, 0xF1, 0x90}));
  EXPECT_EQ(parse_hex_bytes(" 22 f1 9 0 "), (Bytes{0x22, 0xF1, 0x90}));
  EXPECT_EQ(parse_hex_bytes(""), Bytes{});
}

TEST(UdsHex, SaysWhatIsWrong) {
  try {
    (void)parse_hex_bytes("22G1");
    FAIL() << "a G is not hex";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), "'G' is not a hex digit");
  }
  try {
    (void)parse_hex_bytes("22F");
    FAIL() << "three digits are not whole bytes";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), "an odd number of hex digits");
  }
}

TEST(UdsHex, WritesUpperCaseWithTheSeparatorBetweenBytesOnly) {
  const std::array<std::uint8_t, 4> bytes{0x7F, 0x22, 0x0a, 0x00};
  EXPECT_EQ(hex_text(bytes), "7F220A00");
  EXPECT_EQ(hex_text(bytes, " "), "7F 22 0A 00");
  EXPECT_EQ(hex_text({}), "");
  EXPECT_EQ(parse_hex_bytes(hex_text(bytes, " ")), Bytes(bytes.begin(), bytes.end()));
}

}  // namespace
}  // namespace hil::io::can::uds
