#pragma once
// The bench of the UDS client tests (uds_client_test.cpp, uds_client_timing_test.cpp): a
// UdsClient and a simulated ECU (ISO-TP Link + UdsServer) on one bus, stepped every
// millisecond, with every frame logged; and the ECU's and client's settings they share.

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
inline ServerSpec server_spec() {
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
inline isotp::LinkSpec ecu_link(std::uint8_t block_size = 0, std::uint8_t st_min = 0) {
  isotp::LinkSpec l;
  l.tx_id = 0x7E8;
  l.rx_id = 0x7E0;
  l.functional_rx_id = 0x7DF;
  l.block_size = block_size;
  l.st_min = st_min;
  return l;
}

inline ClientSpec client_spec() {
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
inline unsigned pci(const CanFrame& f) { return f.data[0] >> 4U; }

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

inline Bytes vin_response() {
  const std::string_view vin = kVin;
  Bytes r(3 + vin.size());
  r[0] = 0x62;
  r[1] = 0xF1;
  r[2] = 0x90;
  for (std::size_t i = 0; i < vin.size(); ++i) r[3 + i] = static_cast<std::uint8_t>(vin[i]);
  return r;
}

inline CanFrame frame_of(std::uint32_t id, std::initializer_list<std::uint8_t> bytes) {
  CanFrame f;
  f.id = id;
  for (const std::uint8_t b : bytes) f.data[f.length++] = b;
  while (f.length < 8) f.data[f.length++] = 0xCC;
  return f;
}

}  // namespace hil::io::can::uds::testing
