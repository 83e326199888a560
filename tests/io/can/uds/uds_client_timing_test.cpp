// The UDS tester's timing (io/can/uds/uds_client.hpp) against the simulated ECU
// (uds_client_bench.hpp): "response pending" and P2*, the timeout at exactly P2, suppressed
// positive responses and the session they leave, TesterPresent keep-alive.

#include <gtest/gtest.h>

#include "tests/io/can/uds/uds_client_bench.hpp"

namespace hil::io::can::uds::testing {
namespace {

TEST(UdsClient, ResponsePendingThenTheFinalResponse) {
  Bench b;
  ASSERT_TRUE(b.ask({0x10, 0x03}));
  b.now = 100 * kMs;
  const auto o = b.ask({0x31, 0x01, 0x03, 0x01});
  ASSERT_TRUE(o);
  std::vector<std::int64_t> pendings;
  for (const Logged& l : b.frames(false, 100 * kMs)) {
    if (l.frame.data[1] == 0x7F && l.frame.data[3] == nrc::kResponsePending) {
      pendings.push_back(l.t);
    }
  }
  EXPECT_EQ(pendings, (std::vector<std::int64_t>{100 * kMs, 200 * kMs, 300 * kMs}));
  EXPECT_EQ(o->pending, 3);
  EXPECT_FALSE(o->timed_out);
  EXPECT_EQ(b.last_response, (Bytes{0x71, 0x01, 0x03, 0x01}));
  EXPECT_EQ(o->done_ns, 401 * kMs);
}

// Hand-made frames, exact times: P2 from the request; after a 78, P2* from the poll that took
// it; the wait ends at exactly that deadline (not a nanosecond before), with the count.
TEST(UdsClient, PendingRestartsTheWaitForExactlyPStar) {
  UdsClient c(client_spec());
  std::array<CanFrame, 8> out{};
  ASSERT_TRUE(c.request(Bytes{0x31, 0x01, 0x03, 0x01}, false, 0));
  ASSERT_EQ(c.poll(0, out), 1U);
  c.on_frame(frame_of(0x7E8, {0x03, 0x7F, 0x31, 0x78}), 40 * kMs);
  (void)c.poll(40 * kMs, out);
  (void)c.poll(kP2, out);
  EXPECT_FALSE(c.take_outcome()) << "P2 no longer applies after a 78";
  c.on_frame(frame_of(0x7E8, {0x03, 0x7F, 0x31, 0x78}), 150 * kMs);
  (void)c.poll(150 * kMs, out);  // P2* (150 ms) now runs until 300 ms
  (void)c.poll(300 * kMs - 1, out);
  EXPECT_FALSE(c.take_outcome());
  (void)c.poll(300 * kMs, out);
  const auto o = c.take_outcome();
  ASSERT_TRUE(o);
  EXPECT_TRUE(o->timed_out);
  EXPECT_FALSE(o->suppressed);
  EXPECT_EQ(o->pending, 2);
  EXPECT_EQ(o->done_ns, 300 * kMs);
  EXPECT_TRUE(o->response.empty());
}

TEST(UdsClient, TimesOutAtExactlyP2) {
  UdsClient c(client_spec());
  std::array<CanFrame, 8> out{};
  const std::int64_t t0 = 7 * kMs + 123;
  ASSERT_TRUE(c.request(Bytes{0x22, 0xF1, 0x90}, false, t0));
  ASSERT_EQ(c.poll(t0, out), 1U);
  EXPECT_EQ(out[0], frame_of(0x7E0, {0x03, 0x22, 0xF1, 0x90}));
  for (std::int64_t t = t0 + kMs; t < t0 + kP2; t += kMs) {
    EXPECT_EQ(c.poll(t, out), 0U);
    ASSERT_FALSE(c.take_outcome()) << t;
  }
  EXPECT_EQ(c.poll(t0 + kP2 - 1, out), 0U);
  EXPECT_FALSE(c.take_outcome());
  EXPECT_TRUE(c.busy());
  (void)c.poll(t0 + kP2, out);
  const auto o = c.take_outcome();
  ASSERT_TRUE(o);
  EXPECT_TRUE(o->timed_out);
  EXPECT_FALSE(o->suppressed || o->refused);
  EXPECT_EQ(o->sent_ns, t0);
  EXPECT_EQ(o->done_ns, t0 + kP2);
  EXPECT_EQ(o->pending, 0);
  EXPECT_TRUE(o->response.empty());
  EXPECT_FALSE(c.busy());
}

// 3E 80 and 10 83 get no answer and none was due: suppressed at P2, not timed out; 10 83 left
// the extended session (the ECU is in it); a negative answer to a suppressed request is still
// an answer.
TEST(UdsClient, SuppressedPositiveResponsesAndTheSessionTheyLeave) {
  Bench b;
  auto o = b.ask({0x3E, 0x80});
  ASSERT_TRUE(o);
  EXPECT_TRUE(o->suppressed);
  EXPECT_FALSE(o->timed_out);
  EXPECT_TRUE(o->response.empty());
  EXPECT_EQ(o->done_ns - o->sent_ns, kP2);
  EXPECT_FALSE(b.client.in_non_default_session());

  o = b.ask({0x10, 0x83});
  ASSERT_TRUE(o);
  EXPECT_TRUE(o->suppressed);
  EXPECT_FALSE(o->timed_out);
  EXPECT_EQ(b.server.session(), Session::extended);
  EXPECT_TRUE(b.client.in_non_default_session());
  EXPECT_TRUE(b.frames(false).empty()) << "the ECU said nothing";

  o = b.ask({0x10, 0x81});
  ASSERT_TRUE(o);
  EXPECT_TRUE(o->suppressed);
  EXPECT_EQ(b.server.session(), Session::default_session);
  EXPECT_FALSE(b.client.in_non_default_session());

  o = b.ask({0x10, 0x82});  // programming from default: NRC 0x7E despite the suppress bit
  ASSERT_TRUE(o);
  EXPECT_FALSE(o->suppressed);
  EXPECT_FALSE(o->timed_out);
  EXPECT_EQ(b.last_response, (Bytes{0x7F, 0x10, 0x7E}));
  EXPECT_FALSE(b.client.in_non_default_session());

  o = b.ask({0x10, 0x03});  // positive 50 03 …: tracked from the response
  ASSERT_TRUE(o);
  EXPECT_EQ(b.last_response.at(0), 0x50);
  EXPECT_TRUE(b.client.in_non_default_session());
  o = b.ask({0x11, 0x01});  // a positive ECUReset ends in the default session
  ASSERT_TRUE(o);
  EXPECT_EQ(b.last_response, (Bytes{0x51, 0x01}));
  EXPECT_FALSE(b.client.in_non_default_session());

  ASSERT_TRUE(b.ask({0x10, 0x03}));
  EXPECT_TRUE(b.client.in_non_default_session());
  o = b.ask({0x11, 0x81});  // … and so does a suppressed one
  ASSERT_TRUE(o);
  EXPECT_TRUE(o->suppressed);
  EXPECT_EQ(b.server.session(), Session::default_session);
  EXPECT_FALSE(b.client.in_non_default_session());
}

// TesterPresent 3E 80 exactly every tester_present_ns after the last request while a
// non-default session is open (it keeps the ECU's S3 of 300 ms from expiring), none in the
// default session.
TEST(UdsClient, KeepAliveExactlyEveryTesterPresentPeriodInANonDefaultSession) {
  ClientSpec cs = client_spec();
  cs.tester_present_ns = 100 * kMs;
  Bench b(cs);
  b.run_until(1000 * kMs);
  EXPECT_TRUE(b.wire.empty()) << "the default session needs no keep-alive";

  b.now = 1000 * kMs;
  ASSERT_TRUE(b.ask({0x10, 0x83}));  // at 1000 ms, suppressed: the session from the request
  b.run_until(1250 * kMs - 1);
  b.now = 1250 * kMs;
  ASSERT_TRUE(b.ask({0x22, 0xF1, 0x90}));  // a request restarts the period
  b.run_until(2000 * kMs);
  EXPECT_EQ(b.server.session(), Session::extended) << "kept alive past S3";

  const CanFrame present = frame_of(0x7E0, {0x02, 0x3E, 0x80});
  std::vector<std::int64_t> presents;
  for (const Logged& l : b.frames(true)) {
    if (l.frame == present) presents.push_back(l.t);
  }
  const std::vector<std::int64_t> expected{1100 * kMs, 1200 * kMs, 1350 * kMs,
                                           1450 * kMs, 1550 * kMs, 1650 * kMs,
                                           1750 * kMs, 1850 * kMs, 1950 * kMs};
  EXPECT_EQ(presents, expected);
  for (const Logged& l : b.frames(false)) {
    EXPECT_NE(l.frame.data[1], 0x7E) << "3E 80: no answers at " << l.t;
  }

  b.now = 2000 * kMs + kMs;
  ASSERT_TRUE(b.ask({0x10, 0x01}));  // back to default: the keep-alive stops
  EXPECT_FALSE(b.client.in_non_default_session());
  const std::int64_t back = b.now;
  b.run_until(3000 * kMs);
  EXPECT_TRUE(b.frames(true, back + kMs).empty());
}

TEST(UdsClient, NoKeepAliveWhenItsPeriodIsZero) {
  Bench b;  // tester_present_ns 0
  ASSERT_TRUE(b.ask({0x10, 0x03}));
  ASSERT_TRUE(b.client.in_non_default_session());
  const std::int64_t after = b.now + kMs;
  b.run_until(1000 * kMs);
  EXPECT_TRUE(b.frames(true, after).empty());
}

// Nobody answers the first frame: ISO-TP gives up at N_Bs (1 s) and the request is refused
// — neither timed out at P2 (it never went out whole) nor still waiting.

}  // namespace
}  // namespace hil::io::can::uds::testing
