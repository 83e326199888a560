#pragma once
// What the UDS server tests share: a DataAccess over plain arrays, an ECU spec with DIDs,
// routines and DTCs taken from ISO 14229-1's examples, and a one-call request/response.

#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "io/can/uds/data_access.hpp"
#include "io/can/uds/dtc_store.hpp"
#include "io/can/uds/uds_server.hpp"

namespace hil::io::can::uds::testing {

using Bytes = std::vector<std::uint8_t>;

inline constexpr std::int64_t kMs = 1'000'000;
inline constexpr std::int64_t kSecond = 1'000 * kMs;

/// The DIDs of ecu_spec(), by index (DataAccess's did number).
inline constexpr std::size_t kWheelSpeed = 0;
inline constexpr std::size_t kSpeedLimit = 1;
inline constexpr std::size_t kCalibration = 2;

/// Values in fixed arrays, so that reading and writing allocate nothing (the budget test).
struct FakeData final : DataAccess {
  std::array<std::array<std::uint8_t, 4>, 3> values{{{0x12, 0x34}, {0x00, 0x50}, {1, 2, 3, 4}}};
  bool refuse = false;  ///< every call fails (NRC 0x22)
  int starts = 0;
  int stops = 0;
  std::size_t last_option_size = 0;

  bool read(std::size_t did, std::span<std::uint8_t> out) noexcept override {
    if (refuse || did >= values.size() || out.size() > values[did].size()) return false;
    std::copy_n(values[did].begin(), out.size(), out.begin());
    return true;
  }
  bool write(std::size_t did, std::span<const std::uint8_t> data) noexcept override {
    if (refuse || did >= values.size() || data.size() > values[did].size()) return false;
    std::copy(data.begin(), data.end(), values[did].begin());
    return true;
  }
  bool start_routine(std::size_t, std::span<const std::uint8_t> option) noexcept override {
    last_option_size = option.size();
    ++starts;
    return !refuse;
  }
  bool stop_routine(std::size_t) noexcept override {
    ++stops;
    return !refuse;
  }
  std::size_t routine_status(std::size_t routine, RoutineControlType type,
                             std::span<std::uint8_t> out) noexcept override {
    if (out.size() < 2) return 0;
    switch (type) {
      case RoutineControlType::start:
        return 0;
      case RoutineControlType::stop:
        out[0] = 0x30;  // ISO 14229-1 §13.2.5's stopRoutine example: routineStatusRecord 30
        return 1;
      case RoutineControlType::results:
        out[0] = 0x30;
        out[1] = static_cast<std::uint8_t>(routine);
        return 2;
    }
    return 0;
  }
};

/// VIN of ISO 14229-1 §10.2.5's ReadDataByIdentifier example.
inline constexpr char kVin[] = "W0L000043MB541326";

/// An ECU: wheel speed 0100 (2 bytes, read-only), speed limit 0200 (2 bytes, writable in the
/// extended session), calibration 0300 (4 bytes, writable with security); text DIDs F190,
/// F187, F18C; routine 0201 (self test, at once, extended) of ISO 14229-1 §13.2.5's example
/// and FF00 (erase, 12 s, security, programming or extended); snapshot DID 0100.
inline ServerSpec ecu_spec() {
  ServerSpec spec;
  spec.vin = kVin;
  spec.part_number = "HIL-4711";
  spec.serial_number = "SN0001";
  spec.dids = {
      {.id = 0x0100, .name = "wheel speed", .length = 2},
      {.id = 0x0200, .name = "speed limit", .length = 2, .writable = true},
      {.id = 0x0300,
       .name = "calibration",
       .length = 4,
       .writable = true,
       .write_security_level = 1},
  };
  spec.routines = {
      {.id = 0x0201, .name = "self test"},
      {.id = 0xFF00,
       .name = "erase",
       .duration_ns = 12 * kSecond,
       .sessions = kNonDefaultSessions,
       .security_level = 1},
  };
  spec.snapshot_did = 0x0100;
  return spec;
}

/// The three DTCs of ISO 14229-1 §11.3.5's ReadDTCInformation examples, in their order.
/// 0A9B17 confirms after 2 failed cycles, the others at the first.
inline std::vector<DtcSpec> example_dtcs() {
  return {
      {.code = 0x0A9B17, .name = "hybrid battery temperature", .confirmation_threshold = 2},
      {.code = 0x080511, .name = "clutch position"},
      {.code = 0x25221F, .name = "A/C request B"},
  };
}

/// One request, its response as bytes (empty: none).
inline Bytes ask(UdsServer& server, const Bytes& request, std::int64_t now_ns = 0,
                 bool functional = false) {
  Bytes response(kMaxMessageBytes);
  response.resize(server.handle(request, functional, now_ns, response));
  return response;
}

/// tick()'s response as bytes (empty: none).
inline Bytes tick(UdsServer& server, std::int64_t now_ns) {
  Bytes response(kMaxMessageBytes);
  response.resize(server.tick(now_ns, response));
  return response;
}

/// The response to SecurityAccess level 1 unlocked properly (extended session first).
inline Bytes unlock(UdsServer& server, std::int64_t now_ns = 0) {
  (void)ask(server, {0x10, 0x03}, now_ns);
  const Bytes seed = ask(server, {0x27, 0x01}, now_ns);
  const std::uint32_t s = (std::uint32_t{seed.at(2)} << 24) | (std::uint32_t{seed.at(3)} << 16) |
                          (std::uint32_t{seed.at(4)} << 8) | seed.at(5);
  const std::uint32_t key = xor_key(s, server.spec().security.key_mask);
  return ask(
      server,
      {0x27, 0x02, static_cast<std::uint8_t>(key >> 24), static_cast<std::uint8_t>(key >> 16),
       static_cast<std::uint8_t>(key >> 8), static_cast<std::uint8_t>(key)},
      now_ns);
}

/// A server of ecu_spec() over FakeData and example_dtcs(), in the default session at t = 0.
class EcuTest : public ::testing::Test {
 protected:
  FakeData data;
  DtcStore dtcs{example_dtcs()};
  UdsServer server{ecu_spec(), dtcs, data};
};

}  // namespace hil::io::can::uds::testing
