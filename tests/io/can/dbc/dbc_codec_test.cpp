// The codec's semantics: multiplexed and extended-multiplexed messages (golden bytes),
// round-half-to-even, saturation counted, NaN, short payloads, frames, lookup by id.

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "tests/io/can/dbc/dbc_codec_test_support.hpp"

namespace hil::io::can::dbc {
namespace {

using testing::bytes;
using testing::encoded;
using testing::hex;
using testing::OneMessage;
using testing::raw_of;

const Database& vehicle() {
  static const Database db = load_dbc(HIL_SOURCE_DIR "/tests/io/data/vehicle.dbc");
  return db;
}

struct Encoded {
  std::string hex;
  EncodeResult result;
};

Encoded encode(const char* message, const std::vector<double>& values) {
  const CompiledMessage m = compile(*vehicle().find_message(message));
  std::vector<std::uint8_t> payload(m.frame_length, 0xEE);  // must be cleared by the encoder
  const EncodeResult r = encode_message(m, values, payload);
  return {hex(payload), r};
}

std::vector<SignalValue> decode(const char* message, const std::string& payload_hex,
                                DecodeResult* result = nullptr) {
  const CompiledMessage m = compile(*vehicle().find_message(message));
  std::vector<SignalValue> values(m.signals.size());
  const DecodeResult r = decode_message(m, bytes(payload_hex), values);
  if (result != nullptr) *result = r;
  return values;
}

TEST(DbcCodec, SimpleMultiplexingEncodesOnlyTheSelectedBranch) {
  // MuxSimple: mode M 0|8, a m0 8|16, b m1 8|16 signed ×0.5, c m1 24|8.
  // mode 1, b −3.5 → raw −7 = FFF9 (Intel: F9 FF), c 7; a (m0) is skipped.
  const Encoded e = encode("MuxSimple", {1, 5, -3.5, 7});
  EXPECT_EQ(e.hex, "01F9FF0700000000");
  EXPECT_TRUE(e.result.ok());
  const auto v = decode("MuxSimple", "0077000000000000");  // mode 0 → a = 0x0077
  EXPECT_TRUE(v[0].present);
  EXPECT_TRUE(v[1].present);
  EXPECT_EQ(v[1].physical, 0x77);
  EXPECT_FALSE(v[2].present);
  EXPECT_FALSE(v[3].present);
}

TEST(DbcCodec, ExtendedMultiplexingFollowsRangesAndChains) {
  // MuxExt: mux1 M 0|8; mux2 (mux1 = 1) 8|8; sig_c (mux2 3..5) 16|16; sig_d (mux1 = 2) 8|16;
  // sig_e (mux2 = 6) 16|8. Values in signal order: mux1, mux2, sig_c, sig_d, sig_e.
  // mux1 1, mux2 4 → sig_c = BEEF (EF BE); sig_d and sig_e not selected.
  EXPECT_EQ(encode("MuxExt", {1, 4, 0xBEEF, 0x3456, 0x11}).hex, "0104EFBE00000000");
  // mux1 2 → only sig_d (3456 → 56 34); mux2 is not selected, so neither is sig_c.
  EXPECT_EQ(encode("MuxExt", {2, 4, 0xBEEF, 0x3456, 0x11}).hex, "0256340000000000");
  // mux1 1, mux2 6 → sig_e.
  EXPECT_EQ(encode("MuxExt", {1, 6, 0xBEEF, 0x3456, 0x11}).hex, "0106110000000000");

  DecodeResult r;
  auto v = decode("MuxExt", "0106AA0000000000", &r);
  EXPECT_TRUE(v[0].present && v[1].present && v[4].present);
  EXPECT_EQ(v[4].physical, 0xAA);
  EXPECT_FALSE(v[2].present);  // 6 is not in 3..5
  EXPECT_FALSE(v[3].present);
  EXPECT_EQ(r.present, 3U);
  EXPECT_EQ(r.not_selected, 2U);
  // mux1 3: mux2 is absent, so sig_c is too although byte 1 holds 4 (the chain decides).
  v = decode("MuxExt", "0304EFBE00000000");
  EXPECT_TRUE(v[0].present);
  EXPECT_FALSE(v[1].present);
  EXPECT_FALSE(v[2].present);
}

TEST(DbcCodec, EncodeRoundsHalfToEven) {
  // factor 0.5: physical/factor lands exactly on .5 for these (exact binary fractions).
  const OneMessage m({"s : 0|8@1- (0.5,0) [0|0] \"\" X"});
  const std::vector<std::pair<double, std::int64_t>> cases{
      {1.25, 2}, {1.75, 4}, {-1.25, -2}, {-1.75, -4}, {0.25, 0}, {0.75, 2}, {-0.25, 0}, {2.2, 4}};
  for (const auto& [physical, raw] : cases) {
    EXPECT_EQ(raw_of(m.signal(), encoded(m.signal(), physical, 8)), raw) << physical;
  }
  const OneMessage unit({"s : 0|8@1+ (1,0) [0|0] \"\" X"});
  EXPECT_EQ(raw_of(unit.signal(), encoded(unit.signal(), 2.5, 8)), 2);
  EXPECT_EQ(raw_of(unit.signal(), encoded(unit.signal(), 3.5, 8)), 4);
  EXPECT_EQ(raw_of(unit.signal(), encoded(unit.signal(), 3.4999, 8)), 3);
}

TEST(DbcCodec, OutOfRangeValuesSaturateAndAreCounted) {
  const OneMessage ranged({"s : 0|8@1+ (1,0) [0|100] \"\" X"});
  const auto sat = SignalStatus::saturated;
  EXPECT_EQ(raw_of(ranged.signal(), encoded(ranged.signal(), 150, 8, sat)), 100);
  EXPECT_EQ(raw_of(ranged.signal(), encoded(ranged.signal(), -5, 8, sat)), 0);
  EXPECT_EQ(raw_of(ranged.signal(), encoded(ranged.signal(), 50, 8)), 50);
  // [0|0]: only the raw range of 8 unsigned bits limits.
  const OneMessage open({"s : 0|8@1+ (1,0) [0|0] \"\" X"});
  EXPECT_EQ(raw_of(open.signal(), encoded(open.signal(), 300, 8, sat)), 255);
  EXPECT_EQ(raw_of(open.signal(), encoded(open.signal(), -1, 8, sat)), 0);
  // A [min|max] wider than the bits: the raw range still limits.
  const OneMessage wide({"s : 0|8@1+ (1,0) [0|1000] \"\" X"});
  EXPECT_EQ(raw_of(wide.signal(), encoded(wide.signal(), 300, 8, sat)), 255);
  // 4-bit signed: −8..7.
  const OneMessage nibble({"s : 0|4@1- (1,0) [0|0] \"\" X"});
  EXPECT_EQ(raw_of(nibble.signal(), encoded(nibble.signal(), 9, 8, sat)), 7);
  EXPECT_EQ(raw_of(nibble.signal(), encoded(nibble.signal(), -9, 8, sat)), -8);
  EXPECT_EQ(raw_of(nibble.signal(), encoded(nibble.signal(), -8, 8)), -8);
  // 64 bits: the limits are not doubles; saturation still lands on the exact extremes.
  const OneMessage s64({"s : 0|64@1- (1,0) [0|0] \"\" X"});
  EXPECT_EQ(hex(encoded(s64.signal(), 1e19, 8, sat)), "FFFFFFFFFFFFFF7F");
  EXPECT_EQ(hex(encoded(s64.signal(), -1e19, 8, sat)), "0000000000000080");
  EXPECT_EQ(hex(encoded(s64.signal(), 9223372036854775808.0, 8, sat)), "FFFFFFFFFFFFFF7F");
  const OneMessage u64({"s : 0|64@1+ (1,0) [0|0] \"\" X"});
  EXPECT_EQ(hex(encoded(u64.signal(), 18446744073709551616.0, 8, sat)), "FFFFFFFFFFFFFFFF");
  EXPECT_EQ(hex(encoded(u64.signal(), std::numeric_limits<double>::infinity(), 8, sat)),
            "FFFFFFFFFFFFFFFF");
  // float32 cannot hold 1e300: FLT_MAX (7F7FFFFF).
  const OneMessage f32({"s : 0|32@1- (1,0) [0|0] \"\" X"}, 8, "SIG_VALTYPE_ 1 s : 1;\n");
  EXPECT_EQ(hex(encoded(f32.signal(), 1e300, 8, sat)), "FFFF7F7F00000000");
}

TEST(DbcCodec, NotANumberWritesZeroAndIsCounted) {
  const OneMessage m({"s : 0|8@1+ (1,10) [0|0] \"\" X"});
  EXPECT_EQ(hex(encoded(m.signal(), std::nan(""), 8, SignalStatus::not_a_number)),
            "0000000000000000");
}

TEST(DbcCodec, MessageEncodeCountsSaturationsAndClearsUnusedBits) {
  // WheelSpeeds [0|655.35] rad/s: two of four out of range.
  const Encoded e = encode("WheelSpeeds", {12.5, 1000, -1, 0.01});
  EXPECT_EQ(e.hex, "E204FFFF00000100");  // 1250 = 04E2; 65535; 0; 1
  EXPECT_EQ(e.result.saturated, 2U);
  EXPECT_EQ(e.result.not_a_number, 0U);
  EXPECT_FALSE(e.result.ok());
}

TEST(DbcCodec, WrongArgumentsAndShortPayloadsAreReportedNotOverrun) {
  const CompiledMessage m = compile(*vehicle().find_message("WheelSpeeds"));
  std::vector<std::uint8_t> small(4, 0);
  std::vector<double> values(4, 1.0);
  EXPECT_TRUE(encode_message(m, values, small).bad_arguments);
  std::vector<std::uint8_t> payload(8, 0);
  EXPECT_TRUE(encode_message(m, std::vector<double>(3, 1.0), payload).bad_arguments);
  EXPECT_EQ(encode_signal(m.signals[3], 1.0, small), SignalStatus::short_payload);

  std::vector<SignalValue> out(4);
  const DecodeResult r = decode_message(m, bytes("E204FFFF"), out);  // 4 of 8 bytes
  EXPECT_EQ(r.present, 2U);
  EXPECT_EQ(r.short_payload, 2U);
  EXPECT_DOUBLE_EQ(out[0].physical, 12.5);
  EXPECT_FALSE(out[2].present);
}

TEST(DbcCodec, EncodeFrameSetsIdFlagsAndFdLength) {
  const CompiledDatabase db(vehicle());
  CanFrame frame;
  const std::int32_t fd = db.find(0x300, false);
  ASSERT_GE(fd, 0);
  const CompiledMessage& m = db.messages()[static_cast<std::size_t>(fd)];
  ASSERT_TRUE(encode_frame(m, std::vector<double>(m.signals.size(), 1.0), frame).ok());
  EXPECT_EQ(frame.id, 0x300U);
  EXPECT_EQ(frame.flags, kFd | kBrs);
  EXPECT_EQ(frame.length, 64);
  EXPECT_TRUE(is_valid(frame));

  const std::int32_t ext = db.find(0x18FEF1FE, true);
  ASSERT_GE(ext, 0);
  const CompiledMessage& e = db.messages()[static_cast<std::size_t>(ext)];
  ASSERT_TRUE(encode_frame(e, std::vector<double>{3, 1.5}, frame).ok());
  EXPECT_EQ(frame.flags, kExtended);
  EXPECT_EQ(frame.length, 8);
  EXPECT_EQ(frame.data[0], 3);
  EXPECT_EQ(db.find(0x18FEF1FE, false), -1);
  EXPECT_EQ(db.find(0x999, false), -1);
}

TEST(DbcCodec, FdLengthsRoundUpToTheNextDlcSize) {
  const OneMessage m({"s : 0|8@1+ (1,0) [0|0] \"\" X"}, 10);  // 10 bytes: an FD frame of 12
  EXPECT_EQ(m.compiled.length, 10);
  EXPECT_EQ(m.compiled.frame_length, 12);
}

}  // namespace
}  // namespace hil::io::can::dbc
