// Golden vectors of the DBC codec: payload bytes worked out by hand (in the comments) for
// Intel and Motorola layouts of 1–64 bits at several start bits, signed, float32/float64, a
// 64-byte FD message, multiplexed and extended-multiplexed messages. The same layouts are
// cross-checked against python3-canmatrix in dbc_canmatrix_test.cpp.
//
// Motorola notation below: bytes are written MSB first; "byte1 bits 5..0" are the six low bits.

#include <gtest/gtest.h>

#include "tests/io/can/dbc/dbc_codec_test_support.hpp"

namespace hil::io::can::dbc {
namespace {

using testing::bytes;
using testing::encoded;
using testing::hex;
using testing::OneMessage;
using testing::physical_of;
using testing::raw_of;

/// Encoding `raw` (as physical, factor 1) gives `expected_hex`, and decoding it gives `raw`.
void expect_golden(const OneMessage& m, double raw, const std::string& expected_hex) {
  const std::size_t length = expected_hex.size() / 2;
  EXPECT_EQ(hex(encoded(m.signal(), raw, length)), expected_hex) << raw;
  EXPECT_EQ(physical_of(m.signal(), bytes(expected_hex)), raw) << expected_hex;
}

TEST(DbcGolden, IntelLayouts) {
  // 0|16: raw 0x1234, LSB first: byte0 = 34, byte1 = 12.
  expect_golden(OneMessage({"s : 0|16@1+ (1,0) [0|0] \"\" X"}), 0x1234, "3412000000000000");
  // 4|12: bits 4..15; low nibble C into byte0 bits 7..4 (C0), then AB into byte1.
  expect_golden(OneMessage({"s : 4|12@1+ (1,0) [0|0] \"\" X"}), 0xABC, "C0AB000000000000");
  // 63|1: the MSB of byte 7.
  expect_golden(OneMessage({"s : 63|1@1+ (1,0) [0|0] \"\" X"}), 1, "0000000000000080");
  // 0|1: the LSB of byte 0.
  expect_golden(OneMessage({"s : 0|1@1+ (1,0) [0|0] \"\" X"}), 1, "0100000000000000");
  // 10|7: bits 10..16; raw 0x7F sets byte1 bits 7..2 (FC) and byte2 bit 0 (01).
  expect_golden(OneMessage({"s : 10|7@1+ (1,0) [0|0] \"\" X"}), 0x7F, "00FC010000000000");
}

TEST(DbcGolden, Intel64BitSignals) {
  const OneMessage aligned({"s : 0|64@1+ (1,0) [0|0] \"\" X"});
  // Exact integer decode: EF CD AB 89 67 45 23 01 little endian = 0x0123456789ABCDEF.
  EXPECT_EQ(raw_of(aligned.signal(), bytes("EFCDAB8967452301")), 0x0123456789ABCDEF);
  // 0x0123456789ABCD00 is exact in a double (49 significant bits).
  expect_golden(aligned, static_cast<double>(0x0123456789ABCD00ULL), "00CDAB8967452301");

  // 3|64 needs 9 bytes (bits 3..66): a 12-byte FD message.
  const OneMessage shifted({"s : 3|64@1+ (1,0) [0|0] \"\" X"}, 12);
  // All ones: byte0 bits 7..3 (F8), bytes 1..7 FF, byte8 bits 2..0 (07).
  EXPECT_EQ(raw_of(shifted.signal(), bytes("F8FFFFFFFFFFFFFF07000000")), -1);  // bits 0xFF..FF
  // Raw 1: bit 3 of byte0. Raw 2^63: bit 66 = byte8 bit 2.
  expect_golden(shifted, 1, "080000000000000000000000");
  expect_golden(shifted, 9223372036854775808.0, "000000000000000004000000");
}

TEST(DbcGolden, MotorolaLayouts) {
  // 7|16: MSB = byte0 bit7, big endian: 12 34.
  expect_golden(OneMessage({"s : 7|16@0+ (1,0) [0|0] \"\" X"}), 0x1234, "1234000000000000");
  // 7|12: byte0 = AB, then byte1 bits 7..4 = C.
  expect_golden(OneMessage({"s : 7|12@0+ (1,0) [0|0] \"\" X"}), 0xABC, "ABC0000000000000");
  // 3|12: byte0 bits 3..0 = A, byte1 = BC (crosses the byte boundary low-nibble first).
  expect_golden(OneMessage({"s : 3|12@0+ (1,0) [0|0] \"\" X"}), 0xABC, "0ABC000000000000");
  // 0|1: the LSB of byte 0.
  expect_golden(OneMessage({"s : 0|1@0+ (1,0) [0|0] \"\" X"}), 1, "0100000000000000");
  // 23|4 (gear in vehicle.dbc): byte2 bits 7..4.
  expect_golden(OneMessage({"s : 23|4@0+ (1,0) [0|0] \"\" X"}), 3, "0000300000000000");
  // 51|10: byte6 bits 3..0 = raw bits 9..6, byte7 bits 7..2 = raw bits 5..0.
  // raw 0x2AB = 10 1010 1011: byte6 = 0A, byte7 = 101011 << 2 = AC.
  expect_golden(OneMessage({"s : 51|10@0+ (1,0) [0|0] \"\" X"}), 0x2AB, "0000000000000AAC");
}

TEST(DbcGolden, Motorola64BitSignals) {
  const OneMessage aligned({"s : 7|64@0+ (1,0) [0|0] \"\" X"});
  EXPECT_EQ(raw_of(aligned.signal(), bytes("0123456789ABCDEF")), 0x0123456789ABCDEF);
  expect_golden(aligned, static_cast<double>(0x0123456789ABCD00ULL), "0123456789ABCD00");

  // 4|64: MSB = byte0 bit4; runs byte0 bits 4..0, bytes 1..7, byte8 bits 7..5 (9 bytes).
  const OneMessage shifted({"s : 4|64@0+ (1,0) [0|0] \"\" X"}, 12);
  EXPECT_EQ(raw_of(shifted.signal(), bytes("1FFFFFFFFFFFFFFFE0000000")), -1);
  expect_golden(shifted, 9223372036854775808.0, "100000000000000000000000");  // MSB: byte0 bit4
  expect_golden(shifted, 1, "000000000000000020000000");                      // LSB: byte8 bit5
}

TEST(DbcGolden, SignedTwosComplement) {
  const OneMessage intel({"s : 8|8@1- (1,0) [0|0] \"\" X"});
  expect_golden(intel, -2, "00FE000000000000");
  expect_golden(intel, -128, "0080000000000000");
  expect_golden(intel, 127, "007F000000000000");
  // 13|10 Motorola: MSB = byte1 bit5; raw bits 9..4 in byte1 bits 5..0, bits 3..0 in byte2
  // bits 7..4. −3 = 0x3FD = 11 1111 1101: byte1 = 3F, byte2 = D0.
  expect_golden(OneMessage({"s : 13|10@0- (1,0) [0|0] \"\" X"}), -3, "003FD00000000000");
  // 64-bit signed: −1 is all ones, INT64_MIN is only the MSB.
  const OneMessage wide({"s : 0|64@1- (1,0) [0|0] \"\" X"});
  expect_golden(wide, -1, "FFFFFFFFFFFFFFFF");
  expect_golden(wide, -9223372036854775808.0, "0000000000000080");
}

TEST(DbcGolden, FloatSignalsAreIeeeBits) {
  // float32 1.5 = 0x3FC00000; Intel at bit 32: bytes 4..7 = 00 00 C0 3F.
  expect_golden(OneMessage({"s : 32|32@1- (1,0) [0|0] \"\" X"}, 8, "SIG_VALTYPE_ 1 s : 1;\n"), 1.5,
                "000000000000C03F");
  // Motorola float32 at 7: 3F C0 00 00.
  expect_golden(OneMessage({"s : 7|32@0- (1,0) [0|0] \"\" X"}, 8, "SIG_VALTYPE_ 1 s : 1;\n"), 1.5,
                "3FC0000000000000");
  // float64 −2.0 = 0xC000000000000000, Motorola.
  expect_golden(OneMessage({"s : 7|64@0- (1,0) [0|0] \"\" X"}, 8, "SIG_VALTYPE_ 1 s : 2;\n"), -2.0,
                "C000000000000000");
  // float64 0.1 = 0x3FB999999999999A, Intel: 9A 99 99 99 99 99 B9 3F.
  expect_golden(OneMessage({"s : 0|64@1- (1,0) [0|0] \"\" X"}, 8, "SIG_VALTYPE_ 1 s : 2;\n"), 0.1,
                "9A9999999999B93F");
  // Factor and offset apply to floats too: physical 4 = 1.5 · 2 + 1.
  const OneMessage scaled({"s : 0|32@1- (2,1) [0|0] \"\" X"}, 8, "SIG_VALTYPE_ 1 s : 1;\n");
  EXPECT_EQ(hex(encoded(scaled.signal(), 4.0, 8)), "0000C03F00000000");
}

TEST(DbcGolden, SixtyFourByteFdMessage) {
  const OneMessage fd({"tail : 500|12@1+ (1,0) [0|0] \"\" X", "mot : 455|16@0+ (1,0) [0|0] \"\" X",
                       "wide : 391|64@0+ (1,0) [0|0] \"\" X", "first : 0|8@1+ (1,0) [0|0] \"\" X"},
                      64);
  EXPECT_TRUE(fd.compiled.fd);
  EXPECT_EQ(fd.compiled.frame_length, 64);
  std::vector<std::uint8_t> payload(64, 0);
  // tail 500|12: bits 500..511 = byte62 bits 7..4 and byte63: raw ABC → byte62 C0, byte63 AB.
  ASSERT_EQ(encode_signal(fd.signal(0), 0xABC, payload), SignalStatus::ok);
  // mot 455|16 Motorola: byte56 bit7 is the MSB: byte56 = 12, byte57 = 34.
  ASSERT_EQ(encode_signal(fd.signal(1), 0x1234, payload), SignalStatus::ok);
  // wide 391|64 Motorola: byte48 bit7 onwards, bytes 48..55.
  ASSERT_EQ(encode_signal(fd.signal(2), static_cast<double>(0x0123456789ABCD00ULL), payload),
            SignalStatus::ok);
  ASSERT_EQ(encode_signal(fd.signal(3), 0x5A, payload), SignalStatus::ok);
  std::vector<std::uint8_t> expected(64, 0);
  expected[0] = 0x5A;
  const std::vector<std::uint8_t> wide = bytes("0123456789ABCD00");
  std::copy(wide.begin(), wide.end(), expected.begin() + 48);
  expected[56] = 0x12;
  expected[57] = 0x34;
  expected[62] = 0xC0;
  expected[63] = 0xAB;
  EXPECT_EQ(hex(payload), hex(expected));
  EXPECT_EQ(raw_of(fd.signal(0), payload), 0xABC);
  EXPECT_EQ(raw_of(fd.signal(1), payload), 0x1234);
}

}  // namespace
}  // namespace hil::io::can::dbc
