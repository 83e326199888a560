// E2E_PxxProtect (io/can/e2e/profile) against published worked examples. Every expected byte
// below was also recomputed by an independent Python script written from the specification's
// algorithm (bitwise CRCs, not this library: e2e_reference.py beside this file): all agree.
//
// Sources:
//  P01  zariiii9003/autosar-e2e test/test_p01.py: data id 0x123, 8 zero bytes (its
//       length=7: the 7 bytes after the CRC, i.e. DataLength 64), CRC byte 0, counter bits
//       8-11, nibble bits 12-15; counters 0 and 1 in each of the four modes.
//  P02  zariiii9003/autosar-e2e test/test_p02.py.
//  P05  PRS_E2EProtocol R20-11 §6.6.5, Tables 6.47 (short) and 6.48 (offset 64), as quoted by
//       torsko/autosar-e2e e2e/test/P05/E2E_P05Protect_tests.cpp; counter 1 rows from
//       zariiii9003/autosar-e2e test/test_p05.py.
//  P11  PRS_E2EProtocol §6.12.5, Table 6.86 (data id 0x123), as quoted by parai's SSAS E2E
//       test (P11_CASE1-3) and handohun/autosar-e2e src/profiles/profile11.rs tests.
//  P22  PRS_E2EProtocol §6.13.5, Tables 6.99/6.101 (DataIDList 0x01…0x10, 8 zero bytes,
//       counters 1…15, 0) and 6.102 (offset 64), as quoted by parai's SSAS E2E test
//       (P22_CASE1-2) and handohun/autosar-e2e src/profiles/profile22.rs tests.

#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <vector>

#include "io/can/e2e/profile.hpp"

namespace hil::io::can::e2e {
namespace {

using Bytes = std::vector<std::uint8_t>;

Bytes protected_payload(const ProfileSpec& spec, Bytes payload, std::uint32_t counter) {
  protect(spec, payload, counter);
  return payload;
}

ProfileSpec p01(DataIdMode mode) {
  return ProfileSpec{.profile = Profile::p01, .data_id = 0x123, .data_id_mode = mode};
}

TEST(ProfileProtect, P01BothMode) {
  const ProfileSpec spec = p01(DataIdMode::both);
  EXPECT_EQ(protected_payload(spec, Bytes(8), 0), (Bytes{0xCC, 0x00, 0, 0, 0, 0, 0, 0}));
  EXPECT_EQ(protected_payload(spec, Bytes(8), 1), (Bytes{0x91, 0x01, 0, 0, 0, 0, 0, 0}));
}

TEST(ProfileProtect, P01AltModeTakesTheLowByteForEvenCountersAndTheHighByteForOdd) {
  const ProfileSpec spec = p01(DataIdMode::alt);
  EXPECT_EQ(protected_payload(spec, Bytes(8), 0), (Bytes{0xCE, 0x00, 0, 0, 0, 0, 0, 0}));
  EXPECT_EQ(protected_payload(spec, Bytes(8), 1), (Bytes{0x02, 0x01, 0, 0, 0, 0, 0, 0}));
}

TEST(ProfileProtect, P01LowMode) {
  ProfileSpec spec = p01(DataIdMode::low);
  EXPECT_EQ(protected_payload(spec, Bytes(8), 0), (Bytes{0xCE, 0x00, 0, 0, 0, 0, 0, 0}));
  EXPECT_EQ(protected_payload(spec, Bytes(8), 1), (Bytes{0x93, 0x01, 0, 0, 0, 0, 0, 0}));
  spec.data_id = 0x23;  // the high byte never takes part
  EXPECT_EQ(protected_payload(spec, Bytes(8), 1), (Bytes{0x93, 0x01, 0, 0, 0, 0, 0, 0}));
}

TEST(ProfileProtect, P01NibbleModeWritesTheDataIdNibble) {
  const ProfileSpec spec = p01(DataIdMode::nibble);
  EXPECT_EQ(protected_payload(spec, Bytes(8), 0), (Bytes{0x2A, 0x10, 0, 0, 0, 0, 0, 0}));
  EXPECT_EQ(protected_payload(spec, Bytes(8), 1), (Bytes{0x77, 0x11, 0, 0, 0, 0, 0, 0}));
}

TEST(ProfileProtect, P02) {
  ProfileSpec spec{.profile = Profile::p02};
  EXPECT_EQ(protected_payload(spec, Bytes(8), 1), (Bytes{0x45, 0x01, 0, 0, 0, 0, 0, 0}));
  for (std::uint8_t i = 0; i < 16; ++i) spec.data_id_list[i] = i;
  const Bytes counting{0, 1, 2, 3, 4, 5, 6, 7};
  EXPECT_EQ(protected_payload(spec, counting, 2), (Bytes{0xBC, 0x02, 2, 3, 4, 5, 6, 7}));
  EXPECT_EQ(protected_payload(spec, counting, 1), (Bytes{0x61, 0x01, 2, 3, 4, 5, 6, 7}));
}

TEST(ProfileProtect, P02KeepsTheHighNibbleOfByteOne) {
  ProfileSpec spec{.profile = Profile::p02};
  const Bytes out = protected_payload(spec, Bytes{0, 0xA0, 0, 0, 0, 0, 0, 0}, 3);
  EXPECT_EQ(out[1], 0xA3);
}

TEST(ProfileProtect, P05ShortExampleWritesTheCrcLowByteFirst) {
  const ProfileSpec spec{.profile = Profile::p05, .data_id = 0x1234};
  EXPECT_EQ(protected_payload(spec, Bytes(8), 0), (Bytes{0x1C, 0xCA, 0x00, 0, 0, 0, 0, 0}));
  EXPECT_EQ(protected_payload(spec, Bytes(8), 1), (Bytes{0xCF, 0x8D, 0x01, 0, 0, 0, 0, 0}));
}

TEST(ProfileProtect, P05WithTheHeaderAtOffset64) {
  const ProfileSpec spec{
      .profile = Profile::p05, .data_id = 0x1234, .data_length_bits = 128, .offset_bits = 64};
  Bytes expected(16);
  expected[8] = 0x28;
  expected[9] = 0x91;
  EXPECT_EQ(protected_payload(spec, Bytes(16), 0), expected);
  expected[8] = 0xFB;
  expected[9] = 0xD6;
  expected[10] = 0x01;
  EXPECT_EQ(protected_payload(spec, Bytes(16), 1), expected);
}

TEST(ProfileProtect, P11BothAndNibbleModesMatchTable6_86) {
  ProfileSpec spec{.profile = Profile::p11, .data_id = 0x123};
  EXPECT_EQ(protected_payload(spec, Bytes(8), 0), (Bytes{0xCC, 0x00, 0, 0, 0, 0, 0, 0}));
  EXPECT_EQ(protected_payload(spec, Bytes(8), 1), (Bytes{0x91, 0x01, 0, 0, 0, 0, 0, 0}));
  spec.data_id_mode = DataIdMode::nibble;
  EXPECT_EQ(protected_payload(spec, Bytes(8), 0), (Bytes{0x2A, 0x10, 0, 0, 0, 0, 0, 0}));
  EXPECT_EQ(protected_payload(spec, Bytes(8), 1), (Bytes{0x77, 0x11, 0, 0, 0, 0, 0, 0}));
}

TEST(ProfileProtect, P11NibbleModeWithTheHeaderInByteEight) {
  const ProfileSpec spec{.profile = Profile::p11,
                         .data_id = 0x123,
                         .data_id_mode = DataIdMode::nibble,
                         .data_length_bits = 128,
                         .crc_offset_bits = 64,
                         .counter_offset_bits = 72,
                         .data_id_nibble_offset_bits = 76};
  Bytes expected(16);
  expected[8] = 0x7D;
  expected[9] = 0x10;
  EXPECT_EQ(protected_payload(spec, Bytes(16), 0), expected);
}

ProfileSpec p22(std::uint32_t offset_bits, std::uint32_t length_bits) {
  ProfileSpec spec{
      .profile = Profile::p22, .data_length_bits = length_bits, .offset_bits = offset_bits};
  for (std::uint8_t i = 0; i < 16; ++i) spec.data_id_list[i] = static_cast<std::uint8_t>(i + 1);
  return spec;
}

TEST(ProfileProtect, P22CrcOfEveryCounterMatchesTable6_101) {
  const ProfileSpec spec = p22(0, 64);
  const std::array<std::uint8_t, 16> crcs{0x1B, 0x98, 0x31, 0x0D, 0x18, 0x9B, 0x65, 0x08,
                                          0x1D, 0x9E, 0x37, 0x0B, 0x1E, 0x9D, 0xCD, 0x0E};
  std::uint32_t counter = initial_counter(spec);
  for (const std::uint8_t crc : crcs) {  // the sender's sequence: 1 … 15, then 0
    const Bytes out = protected_payload(spec, Bytes(8), counter);
    EXPECT_EQ(out, (Bytes{crc, static_cast<std::uint8_t>(counter), 0, 0, 0, 0, 0, 0}))
        << "counter " << counter;
    counter = next_counter(spec, counter);
  }
}

TEST(ProfileProtect, P22WithTheHeaderAtOffset64MatchesTable6_102) {
  Bytes expected(16);
  expected[8] = 0x14;
  expected[9] = 0x01;
  EXPECT_EQ(protected_payload(p22(64, 128), Bytes(16), 1), expected);
}

TEST(ProfileProtect, ProtectWritesOnlyTheHeaderBits) {
  const Bytes data{0xFF, 0xFF, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66};
  const Bytes out = protected_payload(p01(DataIdMode::both), data, 5);
  EXPECT_EQ(out[1], 0xF5);  // counter in the low nibble; the high nibble is the application's
  EXPECT_EQ(Bytes(out.begin() + 2, out.end()), Bytes(data.begin() + 2, data.end()));
}

TEST(ProfileProtect, ReadBackWhatProtectWrote) {
  const ProfileSpec spec{.profile = Profile::p05, .data_id = 0x1234};
  const Bytes out = protected_payload(spec, Bytes(8), 0xAB);
  EXPECT_EQ(read_counter(spec, out), 0xABU);
  EXPECT_EQ(read_crc(spec, out), compute_crc(spec, out));
  const ProfileSpec nibble = p01(DataIdMode::nibble);
  EXPECT_EQ(read_data_id_nibble(nibble, protected_payload(nibble, Bytes(8), 0)), 0x1U);
}

TEST(ProfileProtect, AFaultInjectorCanWriteP01sForbiddenCounter15) {
  const ProfileSpec spec = p01(DataIdMode::both);
  const Bytes out = protected_payload(spec, Bytes(8), 15);
  EXPECT_EQ(read_counter(spec, out), 15U);
  EXPECT_EQ(read_crc(spec, out), compute_crc(spec, out));
}

TEST(ProfileProtect, APayloadTooShortForTheSpecIsLeftAlone) {
  const ProfileSpec spec = p01(DataIdMode::both);  // DataLength 64 bits
  const Bytes short_payload{0xAA, 0xBB, 0xCC};
  EXPECT_EQ(protected_payload(spec, short_payload, 3), short_payload);
  EXPECT_EQ(read_counter(spec, short_payload), 0U);
  EXPECT_EQ(compute_crc(spec, short_payload), 0U);
}

}  // namespace
}  // namespace hil::io::can::e2e
