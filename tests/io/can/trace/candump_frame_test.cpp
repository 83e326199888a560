// The can-utils frame text (ID#DATA and friends): parse, format, round trips, and the errors
// of bad text with their columns.

#include <gtest/gtest.h>

#include <array>
#include <random>
#include <string>

#include "io/can/trace/candump_frame.hpp"

namespace hil::io::can {
namespace {

CanFrame parsed(std::string_view text) {
  const FrameParseResult r = parse_frame_text(text);
  EXPECT_TRUE(r.ok) << text << ": column " << r.error.column << ": " << r.error.message;
  return r.frame;
}

TEST(CandumpFrame, ClassicStandardFrame) {
  const CanFrame f = parsed("123#DEADBEEF");
  EXPECT_EQ(f.id, 0x123U);
  EXPECT_EQ(f.flags, 0);
  ASSERT_EQ(f.length, 4);
  EXPECT_EQ(f.data[0], 0xDE);
  EXPECT_EQ(f.data[3], 0xEF);
  EXPECT_EQ(to_frame_text(f), "123#DEADBEEF");
}

TEST(CandumpFrame, ExtendedIdHasEightDigitsEvenWhenSmall) {
  const CanFrame f = parsed("00000123#11");
  EXPECT_EQ(f.id, 0x123U);
  EXPECT_TRUE(f.extended());
  EXPECT_EQ(to_frame_text(f), "00000123#11");
  EXPECT_EQ(to_frame_text(parsed("1FFFFFFF#")), "1FFFFFFF#");
}

TEST(CandumpFrame, LowerCaseAndDotSeparatedDataAreAcceptedButWrittenAsCandumpDoes) {
  const CanFrame f = parsed("7ff#de.ad.be.ef");
  EXPECT_EQ(f.id, 0x7FFU);
  EXPECT_EQ(f.length, 4);
  EXPECT_EQ(to_frame_text(f), "7FF#DEADBEEF");
}

TEST(CandumpFrame, EmptyClassicFrame) {
  const CanFrame f = parsed("000#");
  EXPECT_EQ(f.length, 0);
  EXPECT_EQ(to_frame_text(f), "000#");
}

TEST(CandumpFrame, RemoteRequestWithAndWithoutLength) {
  CanFrame f = parsed("123#R");
  EXPECT_TRUE(f.remote());
  EXPECT_EQ(f.length, 0);
  EXPECT_EQ(to_frame_text(f), "123#R");
  f = parsed("123#R7");
  EXPECT_TRUE(f.remote());
  EXPECT_EQ(f.length, 7);
  EXPECT_EQ(to_frame_text(f), "123#R7");
  EXPECT_EQ(to_frame_text(parsed("12345678#r")), "12345678#R");
}

TEST(CandumpFrame, FdFramesCarryTheirFlagsNibble) {
  CanFrame f = parsed("123##1" + std::string(128, 'A'));
  EXPECT_TRUE(f.fd());
  EXPECT_TRUE(f.brs());
  EXPECT_FALSE(f.esi());
  EXPECT_EQ(f.length, 64);
  EXPECT_EQ(f.data[63], 0xAA);
  f = parsed("00000001##3001122334455667788990011");  // 12 bytes, BRS and ESI
  EXPECT_TRUE(f.extended());
  EXPECT_TRUE(f.brs());
  EXPECT_TRUE(f.esi());
  EXPECT_EQ(f.length, 12);
  EXPECT_EQ(to_frame_text(f), "00000001##3001122334455667788990011");
  f = parsed("123##0");  // FD without data and flags; FDF (4) alone is ignored
  EXPECT_TRUE(f.fd());
  EXPECT_EQ(to_frame_text(f), "123##0");
  EXPECT_EQ(to_frame_text(parsed("123##411")), "123##011");
}

TEST(CandumpFrame, ErrorFramesKeepTheirClassBits) {
  const CanFrame f = parsed("20000080#0000000000000000");
  EXPECT_TRUE(f.error());
  EXPECT_FALSE(f.extended());
  EXPECT_EQ(f.id, 0x80U);
  EXPECT_EQ(f.length, 8);
  EXPECT_EQ(to_frame_text(f), "20000080#0000000000000000");
}

struct BadText {
  const char* text;
  std::size_t column;
  const char* message_part;
};

TEST(CandumpFrame, BadTextIsRejectedWithColumnAndReason) {
  const std::array<BadText, 16> cases{{
      {"123", 3, "expected '#'"},
      {"12#11", 0, "3-digit (11-bit) or 8-digit"},
      {"1234#11", 0, "3-digit (11-bit) or 8-digit"},
      {"12G#11", 2, "hex digit in the id"},
      {"800#11", 0, "at most 7FF"},
      {"40000000#11", 0, "at most 1FFFFFFF"},
      {"123#1", 5, "two hex digits"},
      {"123#1G", 5, "two hex digits"},
      {"123#XY", 4, "hex digit in the data"},
      {"123#112233445566778899", 20, "more than 8 data bytes"},
      {"123##", 5, "FD flags"},
      {"123##111223344556677889900", 26, "0-8, 12, 16"},
      {"123#R9", 5, "length digit 0-8"},
      {"123#R12", 5, "length digit 0-8"},
      {"20000080#R", 9, "error frame cannot be a remote"},
      {"20000080##0", 9, "error frame cannot be an FD"},
  }};
  for (const BadText& c : cases) {
    const FrameParseResult r = parse_frame_text(c.text);
    EXPECT_FALSE(r.ok) << c.text;
    EXPECT_EQ(r.error.column, c.column) << c.text << ": " << r.error.message;
    EXPECT_NE(r.error.message.find(c.message_part), std::string_view::npos)
        << c.text << ": " << r.error.message;
  }
  const std::string too_long_fd = "123##0" + std::string(130, '0');
  EXPECT_FALSE(parse_frame_text(too_long_fd).ok);
}

TEST(CandumpFrame, InvalidFramesAreNotFormatted) {
  CanFrame f;
  f.id = 0x800;  // 12 bits without kExtended
  EXPECT_EQ(to_frame_text(f), "");
  f.id = 1;
  f.length = 9;  // classic frames carry at most 8
  EXPECT_EQ(to_frame_text(f), "");
  std::array<char, 4> small{};
  f.length = 1;
  EXPECT_EQ(format_frame_text(f, small), 0U);
}

TEST(CandumpFrame, RandomFramesRoundTripThroughText) {
  std::mt19937 rng(20240501);
  constexpr std::array<std::uint8_t, 15> kFdLengths{0, 1,  2,  3,  4,  5,  6, 7,
                                                    8, 12, 16, 20, 24, 32, 48};
  for (int i = 0; i < 5000; ++i) {
    CanFrame f;
    const unsigned kind = rng() % 4;
    f.flags = (rng() % 2 != 0) ? kExtended : 0;
    f.id = rng() & (f.extended() ? kMaxExtendedId : kMaxStandardId);
    if (kind == 0) {
      f.flags |= kRemote;
      f.length = static_cast<std::uint8_t>(rng() % 9);
    } else if (kind == 1) {
      f.flags |= kFd | ((rng() % 2 != 0) ? kBrs : 0) | ((rng() % 2 != 0) ? kEsi : 0);
      f.length = (rng() % 16 == 0) ? 64 : kFdLengths[rng() % kFdLengths.size()];
    } else {
      f.length = static_cast<std::uint8_t>(rng() % 9);
    }
    if (!f.remote()) {
      for (std::size_t b = 0; b < f.length; ++b) f.data[b] = static_cast<std::uint8_t>(rng());
    }
    const std::string text = to_frame_text(f);
    ASSERT_FALSE(text.empty());
    const FrameParseResult back = parse_frame_text(text);
    ASSERT_TRUE(back.ok) << text;
    EXPECT_EQ(back.frame, f) << text;
  }
}

}  // namespace
}  // namespace hil::io::can
