// SLCAN line parsing and formatting (io/can/transport/slcan_codec.hpp): Lawicel classic frames,
// RTR, the CAN FD extensions d/D/b/B, replies and commands, the bounded line assembler.

#include "io/can/transport/slcan_codec.hpp"

#include <gtest/gtest.h>

#include <array>
#include <string>
#include <vector>

#include "tests/support/frame_helpers.hpp"

namespace hil::io::can::slcan {
namespace {

using test::make_fd;
using test::make_frame;
using test::make_remote;

CanFrame parse_frame_line(std::string_view line) {
  CanFrame f;
  EXPECT_EQ(parse_line(line, f), LineKind::frame) << line;
  return f;
}

std::string format(const CanFrame& f) {
  std::array<char, kMaxFormattedBytes> buffer{};
  const std::size_t n = format_frame(f, buffer);
  return {buffer.data(), n};
}

std::string hex_run(std::size_t bytes, std::uint8_t seed = 0) {
  static constexpr char kDigits[] = "0123456789ABCDEF";
  std::string s;
  for (std::size_t i = 0; i < bytes; ++i) {
    const auto b = static_cast<std::uint8_t>(i + seed);
    s += kDigits[b >> 4];
    s += kDigits[b & 0xF];
  }
  return s;
}

TEST(SlcanCodec, ParsesClassicFrames) {
  EXPECT_EQ(parse_frame_line("t12381122334455667788"),
            make_frame(0x123, {0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88}));
  EXPECT_EQ(parse_frame_line("t0000"), make_frame(0x0, {}));
  EXPECT_EQ(parse_frame_line("T1ABCDEF02AA55"), make_frame(0x1ABCDEF0, {0xAA, 0x55}, kExtended));
  EXPECT_EQ(parse_frame_line("t1a32abCD"), make_frame(0x1A3, {0xAB, 0xCD}));  // lowercase hex
  EXPECT_EQ(parse_frame_line("r7FF4"), make_remote(0x7FF, 4));
  EXPECT_EQ(parse_frame_line("R000000010"), make_remote(0x1, 0, true));
}

TEST(SlcanCodec, ParsesFdFramesWithHexDlc) {
  EXPECT_EQ(parse_frame_line("d1009" + hex_run(12)), make_fd(0x100, 12));
  EXPECT_EQ(parse_frame_line("b7FFF" + hex_run(64, 3)), make_fd(0x7FF, 64, kBrs, 3));
  EXPECT_EQ(parse_frame_line("D1FFFFFFFD" + hex_run(32)), make_fd(0x1FFFFFFF, 32, kExtended));
  EXPECT_EQ(parse_frame_line("B000000018" + hex_run(8)), make_fd(0x1, 8, kExtended | kBrs));
  EXPECT_EQ(parse_frame_line("d0010"), make_fd(0x1, 0));
}

TEST(SlcanCodec, AcceptsAndIgnoresAFourDigitTimestamp) {
  EXPECT_EQ(parse_frame_line("t12310A1B2C"), make_frame(0x123, {0x0A}));
  EXPECT_EQ(parse_frame_line("r12380000"), make_remote(0x123, 8));
}

TEST(SlcanCodec, RejectsMalformedFrameLines) {
  for (const std::string_view line :
       {"t12", "t123", "t1239", "t8000", "T2000000000", "t1232AA", "t1231AAB", "t1231GG",
        "t1231AA12345", "t1231AAXYZW", "d123G", "r1239", "T1234567", "b1231", "tG000"}) {
    CanFrame f = make_frame(0x55, {5});
    EXPECT_EQ(parse_line(line, f), LineKind::malformed) << line;
    EXPECT_EQ(f, make_frame(0x55, {5})) << "a malformed line leaves the frame alone: " << line;
  }
}

TEST(SlcanCodec, ClassifiesRepliesCommandsAndResponses) {
  CanFrame f;
  EXPECT_EQ(parse_line("", f), LineKind::ok);
  EXPECT_EQ(parse_line("z", f), LineKind::transmit_ack);
  EXPECT_EQ(parse_line("Z", f), LineKind::transmit_ack);
  for (const std::string_view c : {"O", "C", "L", "S6", "s031C", "V", "N", "F", "Z1", "M00000000",
                                   "m00000000", "X1", "W2", "U1", "Q1", "A", "P"}) {
    EXPECT_EQ(parse_line(c, f), LineKind::command) << c;
  }
  for (const std::string_view r : {"V1013", "N1234", "F00", "FA4", "v0101"}) {
    EXPECT_EQ(parse_line(r, f), LineKind::response) << r;
  }
  for (const std::string_view m : {"x", "?", "1234", "\x01"}) {
    EXPECT_EQ(parse_line(m, f), LineKind::malformed) << m;
  }
}

TEST(SlcanCodec, FormatsFramesAsAdaptersDo) {
  EXPECT_EQ(format(make_frame(0x123, {0xDE, 0xAD})), "t1232DEAD\r");
  EXPECT_EQ(format(make_frame(0x18FF0001, {1}, kExtended)), "T18FF0001101\r");
  EXPECT_EQ(format(make_remote(0x7FF, 4)), "r7FF4\r");
  EXPECT_EQ(format(make_remote(0x1, 0, true)), "R000000010\r");
  EXPECT_EQ(format(make_fd(0x100, 12, kBrs)), "b1009" + hex_run(12) + "\r");
  EXPECT_EQ(format(make_fd(0x1FFFFFFF, 64, kExtended)), "D1FFFFFFFF" + hex_run(64) + "\r");
  EXPECT_EQ(format(make_fd(0x1FFFFFFF, 64, kExtended)).size(), kMaxFormattedBytes);
  EXPECT_EQ(format(make_fd(0x5, 1, kEsi)), "d0051" + hex_run(1) + "\r");  // no ESI in SLCAN
}

TEST(SlcanCodec, RefusesErrorFramesInvalidFramesAndShortBuffers) {
  EXPECT_EQ(format(make_frame(0x40, {0, 0, 0, 0, 0, 0, 0, 0}, kError)), "");
  EXPECT_EQ(format(make_frame(0x800, {})), "");  // 11-bit id out of range
  std::array<char, 9> small{};
  EXPECT_EQ(format_frame(make_frame(0x123, {0xDE, 0xAD}), small), 0U);  // needs 10
  std::array<char, 10> exact{};
  EXPECT_EQ(format_frame(make_frame(0x123, {0xDE, 0xAD}), exact), 10U);
}

TEST(SlcanCodec, FormatThenParseIsTheIdentity) {
  std::vector<CanFrame> frames{make_frame(0x7FF, {}), make_remote(0x0, 8),
                               make_remote(0x1FFFFFFF, 3, true)};
  for (const std::uint8_t length : {0, 1, 7, 8, 12, 16, 20, 24, 32, 48, 64}) {
    frames.push_back(make_fd(0x10 + length, length, length % 2 ? kBrs : 0, length));
    frames.push_back(make_fd(0x10000 + length, length, kExtended, length));
    if (length <= 8) frames.push_back(make_fd(0x20, length, 0, 0xF0));
  }
  for (const CanFrame& f : frames) {
    std::string line = format(f);
    ASSERT_FALSE(line.empty());
    ASSERT_EQ(line.back(), '\r');
    line.pop_back();
    EXPECT_EQ(parse_frame_line(line), f) << line;
  }
}

TEST(SlcanCodec, BitrateDigits) {
  EXPECT_EQ(bitrate_digit(10'000), '0');
  EXPECT_EQ(bitrate_digit(125'000), '4');
  EXPECT_EQ(bitrate_digit(500'000), '6');
  EXPECT_EQ(bitrate_digit(750'000), '7');
  EXPECT_EQ(bitrate_digit(800'000), '7');
  EXPECT_EQ(bitrate_digit(1'000'000), '8');
  EXPECT_EQ(bitrate_digit(83'300), std::nullopt);
  EXPECT_EQ(bitrate_digit(0), std::nullopt);
}

struct Event {
  LineAssembler::Event kind;
  std::string line;
  bool operator==(const Event&) const = default;
};

std::vector<Event> feed(LineAssembler& a, std::string_view bytes) {
  std::vector<Event> events;
  for (const char c : bytes) {
    const LineAssembler::Event e = a.push(c);
    if (e != LineAssembler::Event::none) events.push_back({e, std::string(a.line())});
  }
  return events;
}

TEST(SlcanLineAssembler, SplitsLinesBellsAndOverlongLines) {
  using E = LineAssembler::Event;
  LineAssembler a;
  const std::string overlong(kMaxLineBytes + 1, 'A');
  const std::string longest = "B" + std::string(8, '0') + "F" + hex_run(64) + "1234";
  ASSERT_EQ(longest.size(), kMaxLineBytes);
  const auto events = feed(a, "t1231AA\rZ\r\a" + overlong + "\r" + longest + "\r\r\nt0000\r\n");
  const std::vector<Event> expected{{E::line, "t1231AA"}, {E::line, "Z"},     {E::bell, ""},
                                    {E::overlong, ""},    {E::line, longest}, {E::line, ""},
                                    {E::line, "t0000"}};
  EXPECT_EQ(events, expected);
}

TEST(SlcanLineAssembler, OverlongLineIsReportedOnceAndTheNextLineIsIntact) {
  LineAssembler a;
  const auto events = feed(a, std::string(5 * kMaxLineBytes, '7') + "\rt0000\r");
  ASSERT_EQ(events.size(), 2U);
  EXPECT_EQ(events[0].kind, LineAssembler::Event::overlong);
  EXPECT_EQ(events[1].line, "t0000");
}

}  // namespace
}  // namespace hil::io::can::slcan
