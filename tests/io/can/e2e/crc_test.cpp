// The AUTOSAR CRC routines (io/can/e2e/crc): check values and the test vectors of AUTOSAR CP
// "Specification of CRC Routines" (§7.2, the tables of each CRC: 00 00 00 00, F2 01 83, …),
// as also used by zariiii9003/autosar-e2e test/test_crc.py and Igor-Misic/AUTOSAR CRC/crc8.cpp
// ("Specification of CRC Routines page 22/23"); and the start-value convention that continues
// a CRC over several spans.

#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "io/can/e2e/crc.hpp"

namespace hil::io::can::e2e {
namespace {

std::vector<std::uint8_t> bytes(std::string_view text) { return {text.begin(), text.end()}; }

// The data rows of the CRC specification's tables, in its order.
const std::vector<std::vector<std::uint8_t>>& spec_data() {
  static const std::vector<std::vector<std::uint8_t>> rows = {
      {0x00, 0x00, 0x00, 0x00},
      {0xF2, 0x01, 0x83},
      {0x0F, 0xAA, 0x00, 0x55},
      {0x00, 0xFF, 0x55, 0x11},
      {0x33, 0x22, 0x55, 0xAA, 0xBB, 0xCC, 0xDD, 0xEE, 0xFF},
      {0x92, 0x6B, 0x55},
      {0xFF, 0xFF, 0xFF, 0xFF},
  };
  return rows;
}

TEST(Crc, CheckValuesOver123456789) {
  const auto check = bytes("123456789");
  EXPECT_EQ(crc8_sae_j1850(check), 0x4B);
  EXPECT_EQ(crc8_h2f(check), 0xDF);
  EXPECT_EQ(crc16_ccitt_false(check), 0x29B1);
}

TEST(Crc, Crc8SaeJ1850SpecificationTable) {
  const std::array<std::uint8_t, 7> expected{0x59, 0x37, 0x79, 0xB8, 0xCB, 0x8C, 0x74};
  for (std::size_t i = 0; i < spec_data().size(); ++i) {
    EXPECT_EQ(crc8_sae_j1850(spec_data()[i]), expected[i]) << "row " << i;
  }
}

TEST(Crc, Crc8H2FSpecificationTable) {
  const std::array<std::uint8_t, 7> expected{0x12, 0xC2, 0xC6, 0x77, 0x11, 0x33, 0x6C};
  for (std::size_t i = 0; i < spec_data().size(); ++i) {
    EXPECT_EQ(crc8_h2f(spec_data()[i]), expected[i]) << "row " << i;
  }
}

TEST(Crc, Crc16CcittFalseSpecificationTable) {
  const std::array<std::uint16_t, 7> expected{0x84C0, 0xD374, 0x2023, 0xB8F9,
                                              0xF53F, 0x0745, 0x1D0F};
  for (std::size_t i = 0; i < spec_data().size(); ++i) {
    EXPECT_EQ(crc16_ccitt_false(spec_data()[i]), expected[i]) << "row " << i;
  }
}

TEST(Crc, ContinuingOverTwoSpansEqualsOneCallAtEverySplit) {
  const auto data = bytes("123456789");
  const std::span<const std::uint8_t> all{data};
  for (std::size_t split = 0; split <= data.size(); ++split) {
    const auto head = all.first(split);
    const auto tail = all.subspan(split);
    EXPECT_EQ(crc8_sae_j1850(tail, crc8_sae_j1850(head), false), 0x4B) << split;
    EXPECT_EQ(crc8_h2f(tail, crc8_h2f(head), false), 0xDF) << split;
    EXPECT_EQ(crc16_ccitt_false(tail, crc16_ccitt_false(head), false), 0x29B1) << split;
  }
}

TEST(Crc, FirstCallIgnoresTheStartValue) {
  const auto data = bytes("123456789");
  EXPECT_EQ(crc8_sae_j1850(data, 0x12, true), 0x4B);
  EXPECT_EQ(crc8_h2f(data, 0x34, true), 0xDF);
  EXPECT_EQ(crc16_ccitt_false(data, 0x5678, true), 0x29B1);
}

TEST(Crc, ByteByByteEqualsOneCall) {
  for (const auto& row : spec_data()) {
    std::uint8_t j1850 = crc8_sae_j1850(std::span<const std::uint8_t>{});
    std::uint8_t h2f = crc8_h2f(std::span<const std::uint8_t>{});
    std::uint16_t ccitt = crc16_ccitt_false(std::span<const std::uint8_t>{});
    for (const std::uint8_t& byte : row) {
      const std::span<const std::uint8_t> one{&byte, 1};
      j1850 = crc8_sae_j1850(one, j1850, false);
      h2f = crc8_h2f(one, h2f, false);
      ccitt = crc16_ccitt_false(one, ccitt, false);
    }
    EXPECT_EQ(j1850, crc8_sae_j1850(row));
    EXPECT_EQ(h2f, crc8_h2f(row));
    EXPECT_EQ(ccitt, crc16_ccitt_false(row));
  }
}

}  // namespace
}  // namespace hil::io::can::e2e
