// The UDS tester's side (io/can/uds/uds_client.hpp) against the simulated ECU's UdsServer
// over an ISO-TP Link, both stepped every millisecond on one simulated bus (or against
// hand-made frames where the timing must be exact): single- and multi-frame requests and
// responses with both ends' flow control honoured, "response pending" and P2*, the timeout at
// exactly P2, suppressed positive responses and the session they leave, TesterPresent
// keep-alive, ISO-TP's refusal (no flow control: N_Bs), functional requests, stale responses.

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "io/can/isotp/link.hpp"
#include "io/can/uds/dtc_store.hpp"
#include "io/can/uds/uds_client.hpp"
#include "io/can/uds/uds_codec.hpp"
#include "io/can/uds/uds_server.hpp"
#include "tests/io/can/uds/uds_test_support.hpp"

namespace hil::io::can::uds::testing {
namespace {

constexpr std::uint16_t kBlockDid = 0x0400;  ///< 200 bytes, writable in every session
constexpr std::size_t kBlockLength = 200;
constexpr std::uint16_t kSlowRoutine = 0x0301;  ///< 300 ms: 7F 31 78 first
constexpr std::int64_t kP2 = 50 * kMs;

/// Values of the ECU's DIDs in fixed arrays.
struct BlockData final : DataAccess {
  std::array<std::uint8_t, kBlockLength> block{};
  bool read(std::size_t did, std::span<std::uint8_t> out) noexcept override {
    if (did != 0 || out.size() > block.size()) return false;
    std::copy_n(block.begin(), out.size(), out.begin());
    return true;
  }
  bool write(std::size_t did, std::span<const std::uint8_t> data) noexcept override {
    if (did != 0 || data.size() > block.size()) return false;
    std::copy(data.begin(), data.end(), block.begin());
    return true;
  }
  bool start_routine(std::size_t, std::span<const std::uint8_t>) noexcept override { return true; }
};

/// An ECU: the VIN of ISO 14229-1's example, a 200-byte block, a routine of 300 ms
/// (P2*server 200 ms: 7F 31 78 repeated every 100 ms), S3 300 ms, example_dtcs().
ServerSpec server_spec() {
  ServerSpec s;
  s.vin = kVin;
  s.s3_ns = 300 * kMs;
  s.p2_star_ms = 200;
  s.dids = {{.id = kBlockDid,
             .name = "block",
             .length = kBlockLength,
             .writable = true,
             .write_sessions = kAllSessions}};
  s.routines = {{.id = kSlowRoutine, .name = "slow", .duration_ns = 300 * kMs}};
  return s;
}

/// The ECU's ISO-TP end: 0x7E0 → 0x7E8, functional 0x7DF.
isotp::LinkSpec ecu_link(std::uint8_t block_size = 0, std::uint8_t st_min = 0) {
  isotp::LinkSpec l;
  l.tx_id = 0x7E8;
  l.rx_id = 0x7E0;
  l.functional_rx_id = 0x7DF;
  l.block_size = block_size;
  l.st_min = st_min;
  return l;
}

ClientSpec client_spec() {
  ClientSpec c;
  c.p2_ns = kP2;
  c.p2_star_ns = 150 * kMs;
  c.tester_present_ns = 0;  // no keep-alive unless a test wants it
  return c;
}

struct Logged {
  std::int64_t t = 0;
  bool from_client = false;
  CanFrame frame;
};

/// The frame type nibble (0 SF, 1 FF, 2 CF, 3 FC).
unsigned pci(const CanFrame& f) { return f.data[0] >> 4U; }

/// A client and an ECU (Link + UdsServer) on one bus. Each step: the client's due frames
/// reach the ECU, the ECU serves a complete request (and its pending work), then the ECU's
/// frames reach the client, which takes its response at its next poll.
class Bench {
 public:
  explicit Bench(const ClientSpec& c = client_spec(), const isotp::LinkSpec& ecu = ecu_link())
      : client(c), ecu_link_(ecu) {}

  void step(std::int64_t t) {
    std::array<CanFrame, 64> out{};
    const std::size_t n = client.poll(t, out);
    for (std::size_t i = 0; i < n; ++i) {
      wire.push_back({t, true, out[i]});
      if (ecu_on) ecu_link_.on_frame(out[i], t);
    }
    if (const auto got = ecu_link_.take_received()) {
      requests_seen.emplace_back(got->data.begin(), got->data.end());
      const std::size_t r = server.handle(got->data, got->functional, t, response_);
      if (r > 0) (void)ecu_link_.send(std::span(response_).first(r), t);
    }
    if (!ecu_link_.busy_sending()) {
      const std::size_t r = server.tick(t, response_);
      if (r > 0) (void)ecu_link_.send(std::span(response_).first(r), t);
    }
    if (server.reset_requested() != ResetType::none) server.complete_reset();
    const std::size_t m = ecu_link_.poll(t, out);
    for (std::size_t i = 0; i < m; ++i) {
      wire.push_back({t, false, out[i]});
      client.on_frame(out[i], t);
    }
  }

  /// Steps every millisecond from `from` until the outcome is in (or `limit`).
  std::optional<Outcome> until_outcome(std::int64_t from, std::int64_t limit = 5'000 * kMs) {
    for (now = from; now <= limit; now += kMs) {
      step(now);
      if (auto o = client.take_outcome()) {
        last_response.assign(o->response.begin(), o->response.end());
        return o;
      }
    }
    return std::nullopt;
  }

  /// request() at `now` then until_outcome().
  std::optional<Outcome> ask(const Bytes& request, bool functional = false) {
    if (!client.request(request, functional, now)) return std::nullopt;
    return until_outcome(now);
  }

  void run_until(std::int64_t end) {
    for (; now <= end; now += kMs) step(now);
  }

  /// The frames logged from `since` on, from one side.
  [[nodiscard]] std::vector<Logged> frames(bool from_client, std::int64_t since = 0) const {
    std::vector<Logged> out;
    for (const Logged& l : wire) {
      if (l.from_client == from_client && l.t >= since) out.push_back(l);
    }
    return out;
  }

  UdsClient client;
  BlockData data;
  DtcStore dtcs{example_dtcs()};
  UdsServer server{server_spec(), dtcs, data};
  std::vector<Logged> wire;
  std::vector<Bytes> requests_seen;  ///< what the ECU reassembled
  Bytes last_response;
  bool ecu_on = true;  ///< false: nobody answers, the client's frames are lost
  std::int64_t now = 0;

 private:
  isotp::Link ecu_link_;
  std::array<std::uint8_t, kMaxMessageBytes> response_{};
};

Bytes vin_response() {
  const std::string_view vin = kVin;
  Bytes r(3 + vin.size());
  r[0] = 0x62;
  r[1] = 0xF1;
  r[2] = 0x90;
  for (std::size_t i = 0; i < vin.size(); ++i) r[3 + i] = static_cast<std::uint8_t>(vin[i]);
  return r;
}

CanFrame frame_of(std::uint32_t id, std::initializer_list<std::uint8_t> bytes) {
  CanFrame f;
  f.id = id;
  for (const std::uint8_t b : bytes) f.data[f.length++] = b;
  while (f.length < 8) f.data[f.length++] = 0xCC;
  return f;
}

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
