// The UDS server and DTC store on the RT path (DESIGN.md §5): 1000 rounds of every service —
// positive and negative responses, the suppress bit, functional requests, a pending routine,
// the S3 timeout — and of monitor reports, operation cycles and clears allocate nothing.

#include <gtest/gtest.h>

#include <array>
#include <span>
#include <vector>

#include "tests/io/can/uds/uds_test_support.hpp"
#include "tests/support/allocation_counter.hpp"

namespace hil::io::can::uds::testing {
namespace {

TEST(UdsBudget, EveryServiceAThousandTimesAllocatesNothing) {
  FakeData data;
  DtcStore dtcs(example_dtcs());
  UdsServer server(ecu_spec(), dtcs, data);
  // Requests made in advance (making them is the test's work, not the server's).
  const std::vector<Bytes> requests{
      {0x10, 0x03},
      {0x27, 0x01},
      {0x22, 0xF1, 0x90, 0x01, 0x00},
      {0x22, 0x12, 0x34},
      {0x2E, 0x02, 0x00, 0x00, 0x50},
      {0x2E, 0x03, 0x00, 1, 2, 3, 4},
      {0x31, 0x01, 0x02, 0x01},
      {0x31, 0x03, 0x02, 0x01},
      {0x31, 0x02, 0x02, 0x01},
      {0x31, 0x01, 0xFF, 0x00},
      {0x19, 0x01, 0xFF},
      {0x19, 0x02, 0x2F},
      {0x19, 0x04, 0x08, 0x05, 0x11, 0xFF},
      {0x19, 0x06, 0x08, 0x05, 0x11, 0xFF},
      {0x19, 0x0A},
      {0x19, 0x03},
      {0x14, 0x08, 0x05, 0x11},
      {0x14, 0xFF, 0xFF, 0x33},
      {0x3E, 0x00},
      {0x3E, 0x80},
      {0x11, 0x01},
      {0x23, 0x00},
      {0x10, 0x01},
  };
  std::array<std::uint8_t, kMaxMessageBytes> response{};
  std::array<std::uint8_t, 6> key{0x27, 0x02};
  std::int64_t now = 0;
  std::size_t answered = 0;
  const auto round = [&](int i) {
    (void)dtcs.report(static_cast<std::size_t>(i) % dtcs.count(), i % 3 != 0);
    if (i % 10 == 0) dtcs.start_operation_cycle();
    if (i % 50 == 0) (void)dtcs.clear(kAllDtcGroups);
    StatusChange change;
    while (dtcs.pop_change(change)) {
    }
    for (const Bytes& request : requests) {
      now += 10 * kMs;
      const std::size_t n = server.handle(request, i % 7 == 0, now, response);
      answered += n > 0 ? 1 : 0;
      if (request[0] == 0x27 && n == 6) {  // answer the seed with the right key
        const std::uint32_t seed = get_u32(std::span<const std::uint8_t>(response), 2);
        const std::uint32_t k = xor_key(seed, server.spec().security.key_mask);
        key = {0x27,
               0x02,
               std::uint8_t(k >> 24),
               std::uint8_t(k >> 16),
               std::uint8_t(k >> 8),
               std::uint8_t(k)};
        answered += server.handle(key, false, now, response) > 0 ? 1 : 0;
      }
      answered += server.tick(now, response) > 0 ? 1 : 0;
    }
    now += 13 * kSecond;  // the pending routine completes, then S3 expires
    (void)server.tick(now, response);
    (void)server.tick(now + 6 * kSecond, response);
    if (server.reset_requested() != ResetType::none) server.complete_reset();
  };
  round(0);  // first use outside the count
  const std::uint64_t allocations = hil::testing::allocations_in([&] {
    for (int i = 1; i <= 1000; ++i) round(i);
  });
  EXPECT_EQ(allocations, 0U);
  EXPECT_GT(answered, 1000U * requests.size() / 2);
  EXPECT_GE(data.starts, 2 * 1000);  // both routines ran every round: unlocked every round
}

}  // namespace
}  // namespace hil::io::can::uds::testing
