#pragma once
// The simulated ECU's UDS server (ISO 14229-1:2013): takes whole request messages (ISO-TP
// reassembles them) and produces whole responses. Services: DiagnosticSessionControl 0x10,
// ECUReset 0x11, ClearDiagnosticInformation 0x14, ReadDTCInformation 0x19 (01, 02, 04, 06,
// 0A), ReadDataByIdentifier 0x22, SecurityAccess 0x27 (level 1), WriteDataByIdentifier 0x2E,
// RoutineControl 0x31, TesterPresent 0x3E.
//
// Response rules: negative responses in the order of §7.5's general server behaviour (SID
// supported → in this session → length → sub-function → in this session → the service's
// own checks); suppressPosRspMsgIndicationBit suppresses positive responses of every service
// with a sub-function; a functionally addressed request gets no NRC 0x11, 0x12, 0x31, 0x7E or
// 0x7F (§7.5); a routine with a duration answers 7F 31 78 at once and its final response
// (always sent, even with the suppress bit) from tick(), which repeats 7F 31 78 every half
// P2*server_max meanwhile; other requests then get NRC 0x21 busyRepeatRequest, except
// TesterPresent. Session timing: S3server returns a non-default session to default.
//
// Data: DIDs from DataAccess (the integrator's channels) or fixed text in the spec; DTCs from
// a DtcStore. DTC snapshot record 0x01 holds the snapshot DID (ServerSpec::snapshot_did) read
// by tick() after each new occurrence; extended data records 0x01 occurrence counter and 0x02
// aging counter, one byte each.
//
// The constructor validates the spec (std::invalid_argument) and allocates; everything else
// is noexcept and allocation-free: RT-safe. Not thread-safe: one thread (the RT thread) calls
// handle(), tick() and the rest; DtcStore and DataAccess are used from that thread.

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "io/can/uds/byte_writer.hpp"
#include "io/can/uds/data_access.hpp"
#include "io/can/uds/dtc_store.hpp"
#include "io/can/uds/uds_codec.hpp"
#include "io/can/uds/uds_server_spec.hpp"

namespace hil::io::can::uds {

class UdsServer {
 public:
  /// Keeps references to `dtcs` and `data`, which must outlive the server.
  UdsServer(ServerSpec spec, DtcStore& dtcs, DataAccess& data);

  /// Serves one request received at `now_ns` (physically or functionally addressed) and
  /// writes the response into `response` (kMaxMessageBytes always suffice); returns its size,
  /// 0 = no response. A positive response that does not fit becomes NRC 0x14.
  std::size_t handle(std::span<const std::uint8_t> request, bool functional, std::int64_t now_ns,
                     std::span<std::uint8_t> response) noexcept;

  /// Call every cycle: sends what is due (a routine's final response, a repeated 7F 31 78),
  /// takes DTC snapshots, applies the S3 timeout. Returns the response size, 0 = nothing.
  std::size_t tick(std::int64_t now_ns, std::span<std::uint8_t> response) noexcept;

  [[nodiscard]] Session session() const noexcept { return session_; }
  [[nodiscard]] bool security_unlocked() const noexcept { return unlocked_; }
  /// A response is pending (a routine's duration runs).
  [[nodiscard]] bool response_pending() const noexcept { return pending_.active; }

  /// The reset an ECUReset asked for (its positive response is already sent), none if none:
  /// the integrator performs it and then calls complete_reset().
  [[nodiscard]] ResetType reset_requested() const noexcept { return reset_; }
  /// The server after a reset: default session, locked, routines idle, nothing pending. The
  /// SecurityAccess attempt counter and delay survive (as in NVM), so a reset cannot be used
  /// to try more keys.
  void complete_reset() noexcept;

  /// The DIDs served: ServerSpec::dids (their index is DataAccess's did number), then the
  /// text DIDs of vin, part_number, serial_number.
  [[nodiscard]] const std::vector<DidSpec>& dids() const noexcept { return dids_; }
  [[nodiscard]] const ServerSpec& spec() const noexcept { return spec_; }

 private:
  struct Request {
    std::span<const std::uint8_t> bytes;
    bool functional = false;
    std::int64_t now_ns = 0;
    std::uint8_t sub = 0;  ///< sub-function without the suppress bit (bytes[1] & 0x7F)
    bool suppress = false;
  };
  enum class RoutineState : std::uint8_t { idle, running, stopped };
  struct Pending {
    bool active = false;
    std::size_t routine = 0;
    std::int64_t due_ns = 0;
    std::int64_t last_sent_ns = 0;
  };

  std::uint8_t dispatch(Request& rq, ByteWriter& w) noexcept;
  std::uint8_t session_control(const Request& rq, ByteWriter& w) noexcept;
  std::uint8_t ecu_reset(const Request& rq, ByteWriter& w) noexcept;
  std::uint8_t security_access(const Request& rq, ByteWriter& w) noexcept;
  std::uint8_t tester_present(const Request& rq, ByteWriter& w) noexcept;
  std::uint8_t clear_dtc(const Request& rq, ByteWriter& w) noexcept;
  std::uint8_t read_dtc(const Request& rq, ByteWriter& w) noexcept;
  std::uint8_t read_dtc_record(const Request& rq, ByteWriter& w) noexcept;
  std::uint8_t read_did(const Request& rq, ByteWriter& w) noexcept;
  std::uint8_t write_did(const Request& rq, ByteWriter& w) noexcept;
  std::uint8_t routine_control(const Request& rq, ByteWriter& w) noexcept;
  void routine_response(std::size_t routine, RoutineControlType type, ByteWriter& w) noexcept;

  void enter_session(Session s) noexcept;
  void stop_routines() noexcept;
  bool read_value(std::size_t did, std::span<std::uint8_t> out) noexcept;
  void take_snapshots() noexcept;
  [[nodiscard]] std::size_t find_did(std::uint16_t id) const noexcept;
  [[nodiscard]] std::size_t find_routine(std::uint16_t id) const noexcept;
  [[nodiscard]] std::size_t did_length(std::size_t did) const noexcept;

  ServerSpec spec_;
  std::vector<DidSpec> dids_;
  DtcStore& dtcs_;
  DataAccess& data_;
  std::size_t snapshot_did_;  ///< index into dids_, dids_.size() if none

  Session session_ = Session::default_session;
  std::int64_t last_activity_ns_ = 0;
  ResetType reset_ = ResetType::none;

  bool unlocked_ = false;
  bool seed_sent_ = false;  ///< a locked seed went out; sendKey may follow
  std::uint32_t seed_state_;
  std::uint32_t seed_ = 0;
  std::uint8_t failed_attempts_ = 0;
  bool delay_active_ = false;
  std::int64_t delay_until_ns_ = 0;

  std::vector<RoutineState> routines_;
  Pending pending_;
};

}  // namespace hil::io::can::uds
