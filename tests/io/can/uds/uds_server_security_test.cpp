// UdsServer SecurityAccess level 1: seed and key (ISO 14229-1:2013 §9.4), the deterministic
// seed sequence, the attempt limit and delay (NRC 0x35, 0x36, 0x37), sequence errors.

#include <gtest/gtest.h>

#include "tests/io/can/uds/uds_test_support.hpp"

namespace hil::io::can::uds::testing {
namespace {

std::uint32_t seed_of(const Bytes& response) {
  EXPECT_EQ(response.size(), 6U);
  if (response.size() != 6) return 0;
  return (std::uint32_t{response[2]} << 24) | (std::uint32_t{response[3]} << 16) |
         (std::uint32_t{response[4]} << 8) | response[5];
}

Bytes send_key(std::uint32_t key) {
  return {0x27,
          0x02,
          static_cast<std::uint8_t>(key >> 24),
          static_cast<std::uint8_t>(key >> 16),
          static_cast<std::uint8_t>(key >> 8),
          static_cast<std::uint8_t>(key)};
}

class SecurityTest : public EcuTest {
 protected:
  void SetUp() override { (void)ask(server, {0x10, 0x03}); }
  std::uint32_t mask() const { return server.spec().security.key_mask; }
};

TEST_F(SecurityTest, SeedThenKeyUnlocks) {
  const Bytes seed = ask(server, {0x27, 0x01});
  ASSERT_EQ(seed.size(), 6U);
  EXPECT_EQ(seed[0], 0x67);
  EXPECT_EQ(seed[1], 0x01);
  EXPECT_NE(seed_of(seed), 0U);  // §9.4.1: never a zero seed while locked
  EXPECT_FALSE(server.security_unlocked());
  EXPECT_EQ(ask(server, send_key(xor_key(seed_of(seed), mask()))), (Bytes{0x67, 0x02}));
  EXPECT_TRUE(server.security_unlocked());
  // §9.4.1: an unlocked level answers requestSeed with a zero seed
  EXPECT_EQ(ask(server, {0x27, 0x01}), (Bytes{0x67, 0x01, 0x00, 0x00, 0x00, 0x00}));
}

TEST_F(SecurityTest, SeedsFollowTheSameSequenceEveryRun) {
  FakeData other_data;
  DtcStore other_dtcs(example_dtcs());
  UdsServer other(ecu_spec(), other_dtcs, other_data);
  (void)ask(other, {0x10, 0x03});
  const std::uint32_t a1 = seed_of(ask(server, {0x27, 0x01}));
  const std::uint32_t a2 = seed_of(ask(server, {0x27, 0x01}));
  EXPECT_NE(a1, a2);  // a new seed per request
  EXPECT_EQ(seed_of(ask(other, {0x27, 0x01})), a1);
  EXPECT_EQ(seed_of(ask(other, {0x27, 0x01})), a2);
  // xorshift32 from the spec's seed value: the first seed is its first step
  std::uint32_t x = ecu_spec().security.seed;
  x ^= x << 13;
  x ^= x >> 17;
  x ^= x << 5;
  EXPECT_EQ(a1, x);
}

TEST_F(SecurityTest, OnlyTheLatestSeedsKeyUnlocks) {
  const std::uint32_t first = seed_of(ask(server, {0x27, 0x01}));
  const std::uint32_t second = seed_of(ask(server, {0x27, 0x01}));
  ASSERT_NE(first, second);
  EXPECT_EQ(ask(server, send_key(xor_key(first, mask()))), (Bytes{0x7F, 0x27, 0x35}));
}

TEST_F(SecurityTest, ThreeInvalidKeysLockForTheDelay) {
  for (int attempt = 1; attempt <= 3; ++attempt) {
    const std::uint32_t seed = seed_of(ask(server, {0x27, 0x01}, attempt * kSecond));
    const Bytes answer = ask(server, send_key(~xor_key(seed, mask())), attempt * kSecond);
    EXPECT_EQ(answer, (Bytes{0x7F, 0x27, std::uint8_t(attempt < 3 ? 0x35 : 0x36)})) << attempt;
  }
  // the delay (10 s) runs from the third attempt at t = 3 s
  EXPECT_EQ(ask(server, {0x27, 0x01}, 4 * kSecond), (Bytes{0x7F, 0x27, 0x37}));
  EXPECT_EQ(ask(server, {0x27, 0x01}, 12'999 * kMs), (Bytes{0x7F, 0x27, 0x37}));
  const Bytes seed = ask(server, {0x27, 0x01}, 13 * kSecond);
  ASSERT_EQ(seed.size(), 6U);
  EXPECT_EQ(ask(server, send_key(xor_key(seed_of(seed), mask())), 13 * kSecond),
            (Bytes{0x67, 0x02}));
}

TEST_F(SecurityTest, AfterTheDelayTheClientHasAllAttemptsAgain) {
  for (int attempt = 0; attempt < 3; ++attempt) {
    (void)ask(server, {0x27, 0x01});
    (void)ask(server, send_key(0));
  }
  const std::int64_t later = 11 * kSecond;
  for (int attempt = 1; attempt <= 3; ++attempt) {
    (void)ask(server, {0x27, 0x01}, later);
    EXPECT_EQ(ask(server, send_key(0), later).at(2), attempt < 3 ? 0x35 : 0x36);
  }
}

TEST_F(SecurityTest, AResetDoesNotClearTheDelay) {
  for (int attempt = 0; attempt < 3; ++attempt) {
    (void)ask(server, {0x27, 0x01});
    (void)ask(server, send_key(0));
  }
  (void)ask(server, {0x11, 0x01});
  server.complete_reset();
  (void)ask(server, {0x10, 0x03}, kSecond);
  EXPECT_EQ(ask(server, {0x27, 0x01}, kSecond), (Bytes{0x7F, 0x27, 0x37}));
}

TEST_F(SecurityTest, KeyWithoutSeedIsASequenceError) {
  EXPECT_EQ(ask(server, send_key(0x12345678)), (Bytes{0x7F, 0x27, 0x24}));
  const std::uint32_t seed = seed_of(ask(server, {0x27, 0x01}));
  EXPECT_EQ(ask(server, send_key(~xor_key(seed, mask()))), (Bytes{0x7F, 0x27, 0x35}));
  // an invalid key used the seed up
  EXPECT_EQ(ask(server, send_key(xor_key(seed, mask()))), (Bytes{0x7F, 0x27, 0x24}));
}

TEST_F(SecurityTest, LengthAndSubFunctionErrors) {
  EXPECT_EQ(ask(server, {0x27, 0x01, 0x00}), (Bytes{0x7F, 0x27, 0x13}));
  (void)ask(server, {0x27, 0x01});
  EXPECT_EQ(ask(server, {0x27, 0x02, 0xC9, 0xA9}), (Bytes{0x7F, 0x27, 0x13}));  // 2-byte key
  EXPECT_EQ(ask(server, {0x27, 0x03}), (Bytes{0x7F, 0x27, 0x12}));  // level 2 does not exist
  EXPECT_EQ(ask(server, {0x27, 0x03}, 0, true), Bytes{});
  EXPECT_EQ(ask(server, {0x27}), (Bytes{0x7F, 0x27, 0x13}));
}

TEST_F(SecurityTest, ASessionChangeLocksAgain) {
  EXPECT_EQ(unlock(server), (Bytes{0x67, 0x02}));
  EXPECT_EQ(ask(server, {0x10, 0x03}).at(0), 0x50);  // extended → extended
  EXPECT_FALSE(server.security_unlocked());
}

TEST_F(SecurityTest, SuppressedKeyResponseStillUnlocks) {
  const std::uint32_t seed = seed_of(ask(server, {0x27, 0x01}));
  Bytes key = send_key(xor_key(seed, mask()));
  key[1] = 0x82;
  EXPECT_EQ(ask(server, key), Bytes{});
  EXPECT_TRUE(server.security_unlocked());
}

}  // namespace
}  // namespace hil::io::can::uds::testing
