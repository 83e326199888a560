// Seeded random round trips over every layout kind (Intel/Motorola × unsigned/signed/float32/
// float64 × every length × many start bits, in 8- and 64-byte payloads), each checked against
// a bit-by-bit reference of the DBC bit numbering written independently of dbc_layout.

#include <gtest/gtest.h>

#include <bit>
#include <random>

#include "tests/io/can/dbc/dbc_codec_test_support.hpp"

namespace hil::io::can::dbc {
namespace {

using testing::OneMessage;

/// Where raw bit `k` (0 = LSB) of a signal lives, following the DBC definitions literally:
/// Intel counts up from the start bit; Motorola walks down from the start bit (the MSB) and
/// jumps from bit 0 of a byte to bit 7 of the next ("sawtooth").
std::vector<std::uint32_t> reference_positions(std::uint32_t start, std::uint32_t length,
                                               bool intel) {
  std::vector<std::uint32_t> position(length);
  if (intel) {
    for (std::uint32_t k = 0; k < length; ++k) position[k] = start + k;
    return position;
  }
  std::uint32_t p = start;
  for (std::uint32_t j = 0; j < length; ++j) {  // j = 0 is the MSB
    position[length - 1 - j] = p;
    p = (p % 8 == 0) ? p + 15 : p - 1;
  }
  return position;
}

std::vector<std::uint8_t> reference_encode(std::uint64_t raw, const std::vector<std::uint32_t>& pos,
                                           std::size_t length) {
  std::vector<std::uint8_t> payload(length, 0);
  for (std::size_t k = 0; k < pos.size(); ++k) {
    if (((raw >> k) & 1U) != 0)
      payload[pos[k] / 8] |= static_cast<std::uint8_t>(1U << (pos[k] % 8));
  }
  return payload;
}

/// The physical value whose raw value is `bits`, for each value type (factor 1).
double physical_for(std::uint64_t bits, std::uint32_t length, bool is_signed, ValueType type) {
  if (type == ValueType::float32) return std::bit_cast<float>(static_cast<std::uint32_t>(bits));
  if (type == ValueType::float64) return std::bit_cast<double>(bits);
  if (is_signed && length < 64 && ((bits >> (length - 1)) & 1U) != 0) {
    bits |= ~((std::uint64_t{1} << length) - 1);
  }
  return is_signed ? static_cast<double>(static_cast<std::int64_t>(bits))
                   : static_cast<double>(bits);
}

struct Kind {
  bool intel;
  bool is_signed;
  ValueType type;
};

class DbcRoundTrip : public ::testing::TestWithParam<Kind> {};

TEST_P(DbcRoundTrip, RandomValuesAtEveryLengthAndManyStartBitsMatchTheReference) {
  const Kind kind = GetParam();
  std::mt19937_64 rng(0xDBC0 + (kind.intel ? 1 : 0) + (kind.is_signed ? 2 : 0) +
                      4 * static_cast<int>(kind.type));
  std::size_t checked = 0;
  for (const std::uint32_t payload_length : {8U, 64U}) {
    for (std::uint32_t length = 1; length <= 64; ++length) {
      if (kind.type == ValueType::float32 && length != 32) continue;
      if (kind.type == ValueType::float64 && length != 64) continue;
      const int trials = kind.type == ValueType::integer ? 6 : 80;  // floats: one length only
      for (int trial = 0; trial < trials; ++trial) {
        // A start bit that keeps the signal inside the payload.
        const auto start = static_cast<std::uint32_t>(rng() % (std::uint64_t{payload_length} * 8));
        const auto pos = reference_positions(start, length, kind.intel);
        if (*std::max_element(pos.begin(), pos.end()) >= payload_length * 8) continue;
        const std::string sg = "s : " + std::to_string(start) + "|" + std::to_string(length) + "@" +
                               (kind.intel ? "1" : "0") + (kind.is_signed ? "-" : "+") +
                               " (1,0) [0|0] \"\" X";
        const std::string valtype = kind.type == ValueType::float32   ? "SIG_VALTYPE_ 1 s : 1;\n"
                                    : kind.type == ValueType::float64 ? "SIG_VALTYPE_ 1 s : 2;\n"
                                                                      : "";
        const OneMessage m({sg}, payload_length, valtype);
        const std::uint64_t mask = length == 64 ? ~0ULL : (1ULL << length) - 1;
        for (int v = 0; v < 8; ++v) {
          std::uint64_t bits = rng() & mask;
          if (kind.type == ValueType::integer && length > 53)
            bits &= ~0x7FFULL;  // exact in a double
          double physical = physical_for(bits, length, kind.is_signed, kind.type);
          if (!std::isfinite(physical)) continue;  // NaN and ±inf saturate by design
          std::vector<std::uint8_t> payload(payload_length, 0);
          ASSERT_EQ(encode_signal(m.signal(), physical, payload), SignalStatus::ok) << sg;
          ASSERT_EQ(payload, reference_encode(bits, pos, payload_length)) << sg << " raw " << bits;
          double back = 0.0;
          ASSERT_EQ(decode_signal(m.signal(), payload, back), SignalStatus::ok);
          ASSERT_EQ(back, physical) << sg << " raw " << bits;  // −0 decodes as +0 (+ offset)
          ++checked;
        }
      }
    }
  }
  EXPECT_GT(checked, kind.type == ValueType::integer ? 3000U : 300U);
}

INSTANTIATE_TEST_SUITE_P(
    Layouts, DbcRoundTrip,
    ::testing::Values(Kind{true, false, ValueType::integer}, Kind{true, true, ValueType::integer},
                      Kind{false, false, ValueType::integer}, Kind{false, true, ValueType::integer},
                      Kind{true, true, ValueType::float32}, Kind{false, true, ValueType::float32},
                      Kind{true, true, ValueType::float64}, Kind{false, true, ValueType::float64}),
    [](const ::testing::TestParamInfo<Kind>& param_info) {
      const Kind& k = param_info.param;
      const char* type = k.type == ValueType::float32   ? "Float32"
                         : k.type == ValueType::float64 ? "Float64"
                         : k.is_signed                  ? "Signed"
                                                        : "Unsigned";
      return std::string(k.intel ? "Intel" : "Motorola") + type;
    });

TEST(DbcRoundTripScaled, PhysicalValuesSurviveFactorAndOffset) {
  std::mt19937_64 rng(99);
  const OneMessage m({"s : 3|13@0- (0.05,-100) [0|0] \"\" X"});
  for (int i = 0; i < 2000; ++i) {
    const auto raw = static_cast<std::int64_t>(rng() % 8192) - 4096;  // −4096..4095
    const double physical = static_cast<double>(raw) * 0.05 - 100;
    std::vector<std::uint8_t> payload(8, 0);
    ASSERT_EQ(encode_signal(m.signal(), physical, payload), SignalStatus::ok) << physical;
    std::int64_t back = 0;
    ASSERT_EQ(decode_raw(m.signal(), payload, back), SignalStatus::ok);
    ASSERT_EQ(back, raw) << physical;
  }
}

TEST(DbcRoundTripScaled, NeighbouringSignalsAreLeftAlone) {
  // Encoding one signal into a payload full of ones changes only that signal's bits.
  std::mt19937_64 rng(5);
  for (int i = 0; i < 500; ++i) {
    const std::uint32_t length = 1 + static_cast<std::uint32_t>(rng() % 64);
    const bool intel = rng() % 2 == 0;
    const auto start = static_cast<std::uint32_t>(rng() % 512);
    const auto pos = reference_positions(start, length, intel);
    if (*std::max_element(pos.begin(), pos.end()) >= 512) continue;
    const OneMessage m({"s : " + std::to_string(start) + "|" + std::to_string(length) + "@" +
                        (intel ? "1" : "0") + "+ (1,0) [0|0] \"\" X"},
                       64);
    std::vector<std::uint8_t> payload(64, 0xFF);
    ASSERT_EQ(encode_signal(m.signal(), 0, payload), SignalStatus::ok);
    std::vector<std::uint8_t> expected(64, 0xFF);
    for (const std::uint32_t p : pos)
      expected[p / 8] &= static_cast<std::uint8_t>(~(1U << (p % 8)));
    ASSERT_EQ(payload, expected) << start << "|" << length << (intel ? "@1" : "@0");
  }
}

}  // namespace
}  // namespace hil::io::can::dbc
