// The UDS tester's side (io/can/uds/uds_client.hpp) against the simulated ECU's UdsServer
// over an ISO-TP Link (uds_client_bench.hpp): single- and multi-frame requests and responses
// with both ends' flow control honoured, ISO-TP's refusal (no flow control: N_Bs), functional
// requests, stale responses. Timing (P2, P2*, keep-alive): uds_client_timing_test.cpp.

#include <gtest/gtest.h>

#include "tests/io/can/uds/uds_client_bench.hpp"

namespace hil::io::can::uds::testing {
namespace {

TEST(UdsClient, SingleFrameRequestAndResponse) {
  Bench b;
  b.now = 3 * kMs;
  const auto o = b.ask({0x3E, 0x00});
  ASSERT_TRUE(o);
  EXPECT_EQ(b.last_response, (Bytes{0x7E, 0x00}));
  EXPECT_EQ(o->pending, 0);
  EXPECT_FALSE(o->timed_out || o->suppressed || o->refused);
  EXPECT_EQ(o->sent_ns, 3 * kMs);
  EXPECT_EQ(o->done_ns, 4 * kMs) << "taken at the poll after the answer came";
  ASSERT_EQ(b.wire.size(), 2U);
  EXPECT_EQ(b.wire[0].frame, frame_of(0x7E0, {0x02, 0x3E, 0x00}));  // padded with CC
  EXPECT_EQ(b.wire[1].frame, frame_of(0x7E8, {0x02, 0x7E, 0x00}));
  EXPECT_FALSE(b.client.busy());
  EXPECT_FALSE(b.client.take_outcome()) << "an outcome is handed out once";
  EXPECT_EQ(b.client.counters().rx_messages, 1U);
}

TEST(UdsClient, RequestRefusedWhileBusyOrEmptyOrTooLong) {
  UdsClient c(client_spec());
  EXPECT_FALSE(c.request({}, false, 0));
  EXPECT_FALSE(c.request(Bytes(kMaxMessageBytes + 1, 0x2E), false, 0));
  EXPECT_FALSE(c.busy());
  EXPECT_TRUE(c.request(Bytes{0x22, 0xF1, 0x90}, false, 0));
  EXPECT_TRUE(c.busy());
  EXPECT_FALSE(c.request(Bytes{0x3E, 0x00}, false, 0)) << "one request at a time";
  EXPECT_THROW(UdsClient({.request_id = 0x800}), std::invalid_argument);
}

// A 200-byte write goes out in 29 consecutive frames paced by the ECU's flow control (BS 4,
// STmin 5 ms) — longer than P2, which runs from its last frame; the 203-byte read-back comes
// in paced by the client's own flow control (BS 3, STmin 2 ms).
TEST(UdsClient, MultiFrameWriteAndReadBackHonourBothFlowControls) {
  ClientSpec cs = client_spec();
  cs.block_size = 3;
  cs.st_min = 0x02;
  Bench b(cs, ecu_link(4, 0x05));
  ASSERT_TRUE(b.ask({0x10, 0x03}));  // writing needs no session here, but the service does
  Bytes write{0x2E, kBlockDid >> 8, kBlockDid & 0xFF};
  for (std::size_t i = 0; i < kBlockLength; ++i) write.push_back(static_cast<std::uint8_t>(i * 7));
  b.now += 10 * kMs;
  const std::int64_t start = b.now;
  const auto w = b.ask(write);
  ASSERT_TRUE(w);
  EXPECT_EQ(b.last_response, (Bytes{0x6E, 0x04, 0x00}));
  EXPECT_FALSE(w->timed_out);
  ASSERT_FALSE(b.requests_seen.empty());
  EXPECT_EQ(b.requests_seen.back(), write) << "the ECU reassembled the whole request";
  EXPECT_TRUE(std::equal(b.data.block.begin(), b.data.block.end(), write.begin() + 3));

  // The client's frames: FF, then CFs — 4 per block, 5 ms apart within one, each block after
  // an FC of the ECU
  std::vector<Logged> sent;
  std::vector<std::int64_t> ecu_fc;
  for (const Logged& l : b.wire) {
    if (l.t < start) continue;
    if (l.from_client) sent.push_back(l);
    if (!l.from_client && pci(l.frame) == 3) ecu_fc.push_back(l.t);
  }
  ASSERT_EQ(sent.size(), 30U);  // FF (6 bytes) + 29 CFs (197 bytes)
  EXPECT_EQ(pci(sent[0].frame), 1U);
  EXPECT_EQ(sent[0].frame.data[0], 0x10);
  EXPECT_EQ(sent[0].frame.data[1], 203);
  ASSERT_EQ(ecu_fc.size(), 8U);  // after the FF and after CF 4, 8, … 28
  for (std::size_t i = 1; i < sent.size(); ++i) {
    EXPECT_EQ(pci(sent[i].frame), 2U);
    EXPECT_EQ(sent[i].frame.data[0] & 0x0F, i & 0x0F) << "SN";
    const std::size_t in_block = (i - 1) % 4;
    if (in_block > 0) {
      EXPECT_GE(sent[i].t - sent[i - 1].t, 5 * kMs) << "STmin between CFs " << i;
    } else {
      EXPECT_GE(sent[i].t, ecu_fc[(i - 1) / 4]) << "CF " << i << " after the FC of its block";
    }
  }
  EXPECT_GT(sent.back().t - start, kP2) << "the sending outlasts P2 …";
  EXPECT_EQ(w->done_ns, sent.back().t + kMs) << "… which runs only from its end";

  // Read back: the ECU's CFs are paced by the client's FC (BS 3, STmin 2 ms)
  b.now += 10 * kMs;
  const std::int64_t read_start = b.now;
  const auto r = b.ask({0x22, kBlockDid >> 8, kBlockDid & 0xFF});
  ASSERT_TRUE(r);
  EXPECT_EQ(b.last_response.size(), 203U);
  EXPECT_EQ(Bytes(b.last_response.begin() + 3, b.last_response.end()),
            Bytes(write.begin() + 3, write.end()));
  std::vector<Logged> cfs;
  std::vector<Logged> client_fc;
  for (const Logged& l : b.frames(false, read_start)) {
    if (pci(l.frame) == 2) cfs.push_back(l);
  }
  for (const Logged& l : b.frames(true, read_start)) {
    if (pci(l.frame) == 3) client_fc.push_back(l);
  }
  ASSERT_EQ(cfs.size(), 29U);
  ASSERT_EQ(client_fc.size(), 10U);  // after the FF and after CF 3, 6, … 27
  EXPECT_EQ(client_fc[0].frame, frame_of(0x7E0, {0x30, 0x03, 0x02}));
  for (std::size_t i = 1; i < cfs.size(); ++i) {
    if (i % 3 != 0) {
      EXPECT_GE(cfs[i].t - cfs[i - 1].t, 2 * kMs) << "STmin, CF " << i;
    }
  }
  EXPECT_EQ(b.client.counters().rx_messages, 3U);
}

TEST(UdsClient, MultiFrameDtcReport) {
  Bench b;
  const auto o = b.ask({0x19, 0x02, 0xFF});
  ASSERT_TRUE(o);
  // 59 02 availabilityMask, then the three example DTCs in their initial status 0x50
  ASSERT_EQ(b.last_response.size(), 15U);
  EXPECT_EQ(b.last_response[0], 0x59);
  EXPECT_EQ(b.last_response[1], 0x02);
  const std::vector<std::uint32_t> codes{0x0A9B17, 0x080511, 0x25221F};
  for (std::size_t i = 0; i < codes.size(); ++i) {
    const std::size_t at = 3 + 4 * i;
    EXPECT_EQ((std::uint32_t{b.last_response[at]} << 16) |
                  (std::uint32_t{b.last_response[at + 1]} << 8) | b.last_response[at + 2],
              codes[i]);
    EXPECT_EQ(b.last_response[at + 3], dtc_status::kInitial);
  }
  // FF from the ECU, the client's FC (BS 0, STmin 0) on the physical request id, 2 CFs
  const std::vector<Logged> from_client = b.frames(true);
  for (const Logged& l : from_client) {
    EXPECT_EQ(l.frame.id, 0x7E0U) << "at " << l.t << ": PCI " << pci(l.frame);
  }
  ASSERT_EQ(from_client.size(), 2U);
  EXPECT_EQ(from_client[1].frame, frame_of(0x7E0, {0x30, 0x00, 0x00}));
  EXPECT_EQ(b.frames(false).size(), 3U);
}

// 31 01 0301 runs 300 ms: 7F 31 78 at once and every 100 ms (P2*server 200 ms / 2), then the
// final response. P2 (50 ms) would have ended it; each 78 restarts P2* instead.
TEST(UdsClient, RefusedWhenNoFlowControlComes) {
  Bench b;
  b.ecu_on = false;
  Bytes write{0x2E, kBlockDid >> 8, kBlockDid & 0xFF};
  write.resize(3 + kBlockLength, 0x55);
  b.now = 20 * kMs;
  const auto o = b.ask(write);
  ASSERT_TRUE(o);
  EXPECT_TRUE(o->refused);
  EXPECT_FALSE(o->timed_out);
  EXPECT_FALSE(o->suppressed);
  EXPECT_EQ(o->done_ns, 20 * kMs + 1'000 * kMs);
  EXPECT_EQ(b.client.counters().timeout_bs, 1U);
  ASSERT_EQ(b.wire.size(), 1U) << "the first frame alone";
  EXPECT_EQ(pci(b.wire[0].frame), 1U);
  EXPECT_FALSE(b.client.busy());
  b.ecu_on = true;
  b.now += kMs;
  const auto again = b.ask({0x3E, 0x00});
  ASSERT_TRUE(again) << "the client is free again";
  EXPECT_EQ(b.last_response, (Bytes{0x7E, 0x00}));
}

// Functional requests: single frames on 0x7DF only (8 bytes refused); the answer comes on the
// response id, and a multi-frame answer's flow control goes to the physical request id — and
// nothing else goes out on the functional id.
TEST(UdsClient, FunctionalRequestsAreSingleFrames) {
  Bench b;
  EXPECT_FALSE(b.client.request(Bytes{0x22, 0xF1, 0x90, 0xF1, 0x8C, 0xF1, 0x87, 0x01}, true, 0));
  EXPECT_FALSE(b.client.busy());
  auto o = b.ask({0x3E, 0x00}, true);
  ASSERT_TRUE(o);
  EXPECT_EQ(b.last_response, (Bytes{0x7E, 0x00}));
  ASSERT_FALSE(b.wire.empty());
  EXPECT_EQ(b.wire[0].frame, frame_of(0x7DF, {0x02, 0x3E, 0x00}));

  b.now += kMs;
  const std::int64_t start = b.now;
  o = b.ask({0x22, 0xF1, 0x90}, true);
  ASSERT_TRUE(o);
  EXPECT_EQ(b.last_response, vin_response());
  const std::vector<Logged> sent = b.frames(true, start);
  ASSERT_EQ(sent.size(), 2U) << "the request and one FC";
  EXPECT_EQ(sent[0].frame, frame_of(0x7DF, {0x03, 0x22, 0xF1, 0x90}));
  EXPECT_EQ(sent[1].frame, frame_of(0x7E0, {0x30, 0x00, 0x00}));
  // a physical request's multi-frame answer: one FC, on the physical id
  b.now += kMs;
  const std::int64_t physical = b.now;
  ASSERT_TRUE(b.ask({0x22, 0xF1, 0x90}));
  const std::vector<Logged> sent2 = b.frames(true, physical);
  ASSERT_EQ(sent2.size(), 2U);
  EXPECT_EQ(sent2[1].frame, frame_of(0x7E0, {0x30, 0x00, 0x00}));

  UdsClient fd({.fd = true});  // CAN FD: a single frame carries 62 bytes
  EXPECT_FALSE(fd.request(Bytes(63, 0x22), true, 0));
  EXPECT_TRUE(fd.request(Bytes(62, 0x22), true, 0));
}

// A response nobody asked for is dropped, whether polled before any request or arriving just
// before one; the request's own answer is what it gets.
TEST(UdsClient, StaleResponseIsDropped) {
  UdsClient c(client_spec());
  std::array<CanFrame, 8> out{};
  c.on_frame(frame_of(0x7E8, {0x04, 0x62, 0xF1, 0x90, 0x41}), 0);
  EXPECT_EQ(c.poll(kMs, out), 0U);
  EXPECT_FALSE(c.take_outcome());
  EXPECT_FALSE(c.busy());

  c.on_frame(frame_of(0x7E8, {0x03, 0x6E, 0xF1, 0x90}), 2 * kMs);  // late, unread
  ASSERT_TRUE(c.request(Bytes{0x22, 0xF1, 0x8C}, false, 3 * kMs));
  EXPECT_EQ(c.poll(3 * kMs, out), 1U);
  EXPECT_FALSE(c.take_outcome()) << "the stale answer is not this request's";
  c.on_frame(frame_of(0x7E8, {0x04, 0x62, 0xF1, 0x8C, 0x42}), 4 * kMs);
  c.on_frame(frame_of(0x7E9, {0x03, 0x7F, 0x22, 0x31}), 4 * kMs);  // another ECU's: ignored
  (void)c.poll(5 * kMs, out);
  const auto o = c.take_outcome();
  ASSERT_TRUE(o);
  EXPECT_EQ(Bytes(o->response.begin(), o->response.end()), (Bytes{0x62, 0xF1, 0x8C, 0x42}));
  EXPECT_EQ(o->done_ns, 5 * kMs);
}

TEST(UdsClient, SuppressesPositiveResponseTable) {
  struct Case {
    Bytes request;
    bool suppresses;
  };
  const std::vector<Case> cases{
      {{0x10, 0x83}, true},
      {{0x10, 0x03}, false},
      {{0x11, 0x81}, true},
      {{0x19, 0x82, 0xFF}, true},
      {{0x27, 0x81}, true},
      {{0x28, 0x80, 0x01}, true},
      {{0x31, 0x81, 0x02, 0x01}, true},
      {{0x3E, 0x80}, true},
      {{0x3E, 0x00}, false},
      {{0x85, 0x82}, true},
      {{0x87, 0x81}, true},
      // no sub-function: bit 7 of the second byte is data
      {{0x22, 0xF1, 0x90}, false},
      {{0x2E, 0xF1, 0x90, 0x00}, false},
      {{0x14, 0xFF, 0xFF, 0xFF}, false},
      {{0x3E}, false},
      {{}, false},
  };
  for (const Case& c : cases) {
    EXPECT_EQ(suppresses_positive_response(c.request), c.suppresses)
        << std::hex << int(c.request.empty() ? 0 : c.request[0]);
  }
}

}  // namespace
}  // namespace hil::io::can::uds::testing
