// The rig's UDS tester stage (runtime/diag/diag_tester.hpp) on a CanBus over a virtual bus,
// against a UdsServer behind its own ISO-TP Link on another endpoint, ticked by hand (1 ms):
// the DTC statuses read into their channels every period (−1 before the first read and again
// when a read gets no answer), API requests queued 8 deep ahead of the reads, their results,
// ISO-TP's refusal; and its RT path — take(), submit(), run() with the bus — allocating
// nothing and touching no new page. Links the allocation counter: a binary of its own.

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "config/diagnostics_spec.hpp"
#include "io/can/dbc/dbc_parser.hpp"
#include "io/can/isotp/link.hpp"
#include "io/can/mapping/can_bus.hpp"
#include "io/can/transport/transport_factory.hpp"
#include "io/can/uds/uds_server.hpp"
#include "runtime/diag/diag_tester.hpp"
#include "tests/io/can/uds/uds_test_support.hpp"
#include "tests/support/allocation_counter.hpp"

namespace hil::runtime {
namespace {

namespace uds = io::can::uds;
using Bytes = std::vector<std::uint8_t>;

constexpr std::int64_t kPeriodNs = 1'000'000;  // 1 ms ticks
constexpr std::int64_t kReadTicks = 100;       // read_dtcs_every_s 0.1
constexpr std::int64_t kP2Ticks = 1'000;       // the client's P2, 1 s

config::DiagnosticsSpec diag_spec() {
  config::DiagnosticsSpec d;
  d.read_dtcs_every_s = 0.1;
  d.dtcs = {{.code = 0x0A9B17, .name = "battery_temperature"},
            {.code = 0x080511, .name = "clutch_position"},
            {.code = 0x123456, .name = "absent"}};  // the ECU does not know it: reads 0
  return d;
}

/// A bus with no mapped messages, its tester, and an ECU on another endpoint of the virtual
/// bus `uri`. Each tick: the ECU serves what reached it and sends; the bus reads (the tester
/// takes its frames); the tester runs; the bus writes (flushes).
class Bench {
 public:
  explicit Bench(const std::string& uri) {
    io::can::CanBusSpec spec;
    spec.name = "ecu";
    spec.uri = uri;
    spec.database = io::can::dbc::load_dbc(HIL_SOURCE_DIR "/tests/io/data/mapping.dbc");
    std::vector<io::can::MappingProblem> problems;
    bus = io::can::CanBus::create(spec, table, 1e-3, 0, problems);
    if (bus == nullptr) throw std::runtime_error("no bus");
    tester = std::make_unique<DiagTester>(diag_spec(), *bus, table, kPeriodNs);
    for (const char* name : {"battery_temperature", "clutch_position", "absent"}) {
      status.push_back(table.resolve(std::string("diag.dtc.") + name + ".status"));
    }
    table.freeze();
    port = io::can::open_transport(uri);
  }
  ~Bench() { tester.reset(); }

  void tick(std::int64_t k) noexcept {
    const std::int64_t now = k * kPeriodNs;
    const std::size_t n = port->receive(inbox_, k);
    for (std::size_t i = 0; i < n; ++i) {
      if (inbox_[i].frame.id == 0x7E0 || inbox_[i].frame.id == 0x7DF) ++to_ecu;
      if (ecu_on) link_.on_frame(inbox_[i].frame, now);
    }
    if (const auto got = link_.take_received()) {
      const std::size_t r = server.handle(got->data, got->functional, now, response_);
      if (r > 0) (void)link_.send(std::span(response_).first(r), now);
    }
    if (!link_.busy_sending()) {
      const std::size_t r = server.tick(now, response_);
      if (r > 0) (void)link_.send(std::span(response_).first(r), now);
    }
    const std::size_t m = link_.poll(now, outbox_);
    for (std::size_t i = 0; i < m; ++i) (void)port->send(outbox_[i], k);
    port->flush(k);
    bus->read(k, table);
    tester->run({.tick = k, .time = now, .dt = kPeriodNs, .dt_s = 1e-3});
    bus->write(k, table);
  }
  void run(std::int64_t from, std::int64_t to) noexcept {
    for (std::int64_t k = from; k < to; ++k) tick(k);
  }
  [[nodiscard]] double value(std::size_t i) const noexcept { return table.get(status[i]); }

  rt::ChannelTable table;
  std::unique_ptr<io::can::CanBus> bus;
  std::unique_ptr<DiagTester> tester;
  std::vector<rt::ChannelId> status;
  std::unique_ptr<io::can::Transport> port;
  uds::testing::FakeData data;
  uds::DtcStore dtcs{uds::testing::example_dtcs()};
  uds::UdsServer server{uds::testing::ecu_spec(), dtcs, data};
  bool ecu_on = true;  ///< false: what reaches the ECU is lost
  std::uint64_t to_ecu = 0;

 private:
  io::can::isotp::Link link_{io::can::isotp::LinkSpec{.functional_rx_id = 0x7DF}};
  std::array<io::can::TimedFrame, 64> inbox_{};
  std::array<io::can::CanFrame, 64> outbox_{};
  std::array<std::uint8_t, uds::kMaxMessageBytes> response_{};
};

/// The first tick in [from, to) at which `v(i)` is `value`, −1 if none.
template <class Bench>
std::int64_t first_tick(Bench& b, std::int64_t from, std::int64_t to, std::size_t i, double value) {
  for (std::int64_t k = from; k < to; ++k) {
    b.tick(k);
    if (b.value(i) == value) return k;
  }
  return -1;
}

TEST(DiagTester, ReadsTheStatusesEveryPeriodAndMinusOneWhenUnanswered) {
  Bench b("virtual:diag_tester_reads");
  for (std::size_t i = 0; i < 3; ++i) EXPECT_EQ(b.value(i), -1.0) << "before the first read";
  // the first read at tick 0: 19 02 FF out at 0, the 15-byte answer (FF, our FC, 2 CFs) by 3
  const std::int64_t first = first_tick(b, 0, 50, 0, uds::dtc_status::kInitial);
  EXPECT_GE(first, 2);
  EXPECT_LE(first, 5);
  EXPECT_EQ(b.value(1), uds::dtc_status::kInitial);
  EXPECT_EQ(b.value(2), 0.0) << "not reported: no status bit set";
  EXPECT_EQ(b.tester->dtc_reads(), 1U);

  b.run(first + 1, 250);
  (void)b.dtcs.report(1, true);  // clutch position fails at tick 250: the read at 300 sees it
  const double failed = b.dtcs.status(1);
  ASSERT_NE(failed, uds::dtc_status::kInitial);
  const std::int64_t seen = first_tick(b, 250, 400, 1, failed);
  EXPECT_GE(seen, 300);
  EXPECT_LE(seen, 300 + 5) << "within the read's exchange of the period's tick";
  EXPECT_EQ(b.value(0), uds::dtc_status::kInitial);

  // The ECU deaf from 450: the read at 500 gets nothing; at exactly 500 + P2 all are −1, and
  // the read due since then goes out at once and, the ECU back, is answered
  b.run(400, 450);
  b.ecu_on = false;
  b.run(450, 500 + kP2Ticks - 1);
  EXPECT_EQ(b.value(1), failed) << "the last answer holds while a read is under way";
  b.ecu_on = true;  // too late for the read under way: its request was lost
  b.tick(500 + kP2Ticks - 1);
  EXPECT_EQ(b.value(1), failed);
  b.tick(500 + kP2Ticks);
  for (std::size_t i = 0; i < 3; ++i) EXPECT_EQ(b.value(i), -1.0) << "unanswered: unknown";
  const std::int64_t back = first_tick(b, 500 + kP2Ticks + 1, 2000, 1, failed);
  EXPECT_GT(back, 500 + kP2Ticks);
  EXPECT_LE(back, 500 + kP2Ticks + 5);
  EXPECT_EQ(b.value(2), 0.0);
  const std::uint64_t reads = b.tester->dtc_reads();
  b.run(back + 1, back + 1 + 10 * kReadTicks);
  EXPECT_EQ(b.tester->dtc_reads(), reads + 10) << "one read every 100 ticks";
}

// API requests wait 8 deep and go before the DTC reads, one after the other; each result has
// its command's id, its ticks and its response (a suppressed one: empty, not timed out).
TEST(DiagTester, ApiRequestsQueueEightDeepAheadOfTheReads) {
  Bench b("virtual:diag_tester_queue");
  const std::vector<Bytes> requests{{0x22, 0xF1, 0x90},
                                    {0x3E, 0x00},
                                    {0x10, 0x03},
                                    {0x3E, 0x80},
                                    {0x19, 0x02, 0xFF},
                                    {0x22, 0x01, 0x00},
                                    {0x14, 0xFF, 0xFF, 0xFF},
                                    {0x10, 0x01}};
  EXPECT_FALSE(b.tester->submit(99, {}, false));
  EXPECT_FALSE(b.tester->submit(99, Bytes(uds::kMaxMessageBytes + 1, 0x2E), false));
  EXPECT_FALSE(b.tester->submit(99, Bytes{0x22, 0xF1, 0x90, 0xF1, 0x8C, 0xF1, 0x87, 0x01}, true))
      << "functional: one frame";
  for (std::size_t i = 0; i < requests.size(); ++i) {
    EXPECT_TRUE(b.tester->submit(100 + i, requests[i], i == 1)) << i;
  }
  EXPECT_FALSE(b.tester->submit(200, Bytes{0x3E, 0x00}, false)) << "8 wait at most";
  std::int64_t first_read = -1;  // the tick the channels first leave −1
  for (std::int64_t k = 0; k < 1'200; ++k) {
    b.tick(k);
    if (first_read < 0 && b.value(0) != -1.0) first_read = k;
  }
  const std::vector<UdsResult> results = b.tester->take_results();
  ASSERT_EQ(results.size(), 8U);
  std::int64_t last_done = 0;
  for (std::size_t i = 0; i < results.size(); ++i) {
    const UdsResult& r = results[i];
    EXPECT_EQ(r.command, 100 + i);
    EXPECT_GE(r.sent_tick, last_done) << "one after the other";
    EXPECT_GT(r.done_tick, r.sent_tick);
    EXPECT_FALSE(r.timed_out || r.refused) << i;
    last_done = r.done_tick;
  }
  EXPECT_EQ(results[0].sent_tick, 0);
  const Bytes vin(results[0].response.begin(), results[0].response.begin() + results[0].size);
  ASSERT_EQ(vin.size(), 20U);
  EXPECT_EQ(std::string(vin.begin() + 3, vin.end()), uds::testing::kVin);
  EXPECT_EQ(Bytes(results[1].response.begin(), results[1].response.begin() + results[1].size),
            (Bytes{0x7E, 0x00}));
  EXPECT_EQ(results[2].response[0], 0x50);
  EXPECT_EQ(results[3].size, 0U) << "3E 80: suppressed";
  EXPECT_EQ(results[3].done_tick - results[3].sent_tick, kP2Ticks) << "known at P2";
  EXPECT_EQ(results[4].response[0], 0x59);
  EXPECT_EQ(results[6].size, 1U);
  EXPECT_EQ(results[6].response[0], 0x54);
  EXPECT_EQ(b.server.session(), uds::Session::default_session);
  EXPECT_GT(first_read, last_done) << "the DTC read waited for the queue";
  EXPECT_LE(first_read, last_done + 5);
  EXPECT_TRUE(b.tester->take_results().empty()) << "taken once";
}

// A long request nobody takes up (no flow control): the result says refused at N_Bs (1 s).
TEST(DiagTester, RefusedWhenTheEcuGivesNoFlowControl) {
  Bench b("virtual:diag_tester_refused");
  b.run(0, 10);  // the first read done
  b.ecu_on = false;
  Bytes write{0x2E, 0x02, 0x00};
  write.resize(100, 0x55);
  ASSERT_TRUE(b.tester->submit(7, write, false));
  b.run(10, 10 + 1'000 + 2);
  const std::vector<UdsResult> results = b.tester->take_results();
  ASSERT_EQ(results.size(), 1U);
  EXPECT_EQ(results[0].command, 7U);
  EXPECT_TRUE(results[0].refused);
  EXPECT_FALSE(results[0].timed_out);
  EXPECT_EQ(results[0].sent_tick, 10);
  EXPECT_EQ(results[0].done_tick, 10 + 1'000);
  EXPECT_EQ(results[0].size, 0U);
}

TEST(DiagTesterBudget, TakeSubmitAndRunAllocateNothing) {
  Bench b("virtual:diag_tester_budget");
  // Requests made in advance: single and multi-frame answers, functional, pending, negative
  const std::vector<Bytes> requests{{0x22, 0xF1, 0x90},
                                    {0x3E, 0x00},
                                    {0x10, 0x03},
                                    {0x22, 0x01, 0x00, 0x02, 0x00},
                                    {0x19, 0x02, 0xFF},
                                    {0x31, 0x01, 0x02, 0x01},
                                    {0x14, 0xFF, 0xFF, 0xFF},
                                    {0x10, 0x01}};
  Bytes long_write{0x2E, 0x02, 0x00};
  long_write.resize(300, 0xA5);
  std::size_t next = 0;
  // Every 3 s: 1.5 s of requests every 40 ticks (DTC reads between them); then the ECU deaf
  // for 1.3 s, a long write refused (N_Bs) and a read of the VIN timed out behind it.
  const auto round = [&](std::int64_t from) {
    for (std::int64_t k = from; k < from + 1'000; ++k) {
      const std::int64_t phase = k % 3'000;
      if (phase < 1'500 && k % 40 == 0) {
        const Bytes& r = requests[next++ % requests.size()];
        (void)b.tester->submit(static_cast<std::uint64_t>(k), r, r[0] == 0x3E);
      }
      if (phase == 1'500) {
        b.ecu_on = false;
        (void)b.tester->submit(static_cast<std::uint64_t>(k), long_write, false);
      }
      if (phase == 1'600) (void)b.tester->submit(static_cast<std::uint64_t>(k), requests[0], false);
      if (phase == 2'800) b.ecu_on = true;
      if (k % 500 == 7) (void)b.dtcs.report(static_cast<std::size_t>(k / 500) % 3, k % 1000 < 500);
      b.tick(k);
    }
  };
  std::vector<UdsResult> results;
  const auto take = [&] {
    for (const UdsResult& r : b.tester->take_results()) results.push_back(r);
  };
  for (std::int64_t from = 0; from < 3'000; from += 1'000) {  // first use outside the count
    round(from);
    take();
  }
  results.clear();
  const std::uint64_t reads = b.tester->dtc_reads();
  std::uint64_t allocations = 0;
  long faults = 0;
  for (std::int64_t from = 3'000; from < 12'000; from += 1'000) {
    const long before = hil::testing::thread_minor_faults();
    allocations += hil::testing::allocations_in([&] { round(from); });
    faults += hil::testing::thread_minor_faults() - before;
    take();  // the non-RT side, outside the count
  }
  EXPECT_EQ(allocations, 0U);
  if (hil::testing::kPageFaultsAreMeaningful) {
    EXPECT_EQ(faults, 0);
  }
  // the counted ticks served answers, timeouts and refusals, and read the DTCs
  const auto count = [&](auto pred) { return std::count_if(results.begin(), results.end(), pred); };
  EXPECT_GT(count([](const UdsResult& r) { return r.size > 0; }), 30);
  EXPECT_EQ(count([](const UdsResult& r) { return r.timed_out; }), 3);
  EXPECT_EQ(count([](const UdsResult& r) { return r.refused; }), 3);
  EXPECT_GE(b.tester->dtc_reads() - reads, 20U);
}

}  // namespace
}  // namespace hil::runtime
