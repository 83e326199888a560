// The ISO-TP Link on the RT path (DESIGN.md §5): a tester and a server exchanging 1000
// requests and responses of 200 bytes each - segmentation, flow control every 4 frames,
// reassembly, timers - allocate nothing once the Links exist.

#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <vector>

#include "io/can/isotp/link.hpp"
#include "tests/io/can/isotp/isotp_test_support.hpp"
#include "tests/support/allocation_counter.hpp"

namespace hil::io::can::isotp {
namespace {

TEST(IsotpBudget, ThousandExchangesAllocateNothing) {
  for (const bool fd : {false, true}) {
    LinkSpec server = test::server_spec();
    server.fd = fd;
    server.tx_dl = fd ? 64 : 8;
    server.block_size = 4;
    server.functional_rx_id = 0x7DF;
    Link ecu(server);
    Link tester(test::tester_of(server));
    test::Wire wire(tester, ecu);  // no log: the wire itself allocates nothing
    const std::vector<std::uint8_t> request = test::message(200, 1);
    const std::vector<std::uint8_t> response = test::message(200, 2);
    std::int64_t now = 0;
    std::size_t requests = 0;
    std::size_t responses = 0;

    const std::uint64_t allocations = hil::testing::allocations_in([&] {
      for (int i = 0; i < 1000; ++i) {
        (void)tester.send(request, now);
        bool answered = false;
        for (int tick = 0; tick < 1000 && !answered; ++tick, now += 250 * test::kUs) {
          wire.step(now);
          if (const auto r = ecu.take_received()) {
            requests += r->data.size() == request.size() ? 1 : 0;
            (void)ecu.send(response, now);
          }
          if (const auto r = tester.take_received()) {
            responses += r->data.size() == response.size() ? 1 : 0;
            answered = true;
          }
        }
      }
    });

    EXPECT_EQ(allocations, 0U) << (fd ? "fd" : "classic");
    EXPECT_EQ(requests, 1000U);
    EXPECT_EQ(responses, 1000U);
    EXPECT_EQ(ecu.counters().rx_messages, 1000U);
    EXPECT_EQ(tester.counters().tx_messages, 1000U);
  }
}

}  // namespace
}  // namespace hil::io::can::isotp
