#pragma once
// The configuration of a simulated ECU's UDS server (uds_server.hpp): sessions and timing,
// data identifiers, routines, SecurityAccess level 1. Plain data, built at setup; validate()
// checks it (the server's constructor calls it).

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "io/can/uds/uds_codec.hpp"

namespace hil::io::can::uds {

/// A set of sessions: bit n for diagnosticSessionType n.
using SessionMask = std::uint8_t;

[[nodiscard]] constexpr SessionMask session_bit(Session s) noexcept {
  return static_cast<SessionMask>(1U << static_cast<unsigned>(s));
}
inline constexpr SessionMask kNonDefaultSessions =
    session_bit(Session::programming) | session_bit(Session::extended);
inline constexpr SessionMask kAllSessions =
    session_bit(Session::default_session) | kNonDefaultSessions;

/// The largest DID value: a response's SID and DID must fit with it into kMaxMessageBytes.
inline constexpr std::size_t kMaxDidLength = kMaxMessageBytes - 3;
/// Data identifiers one ReadDataByIdentifier request may ask for (more: NRC 0x13).
inline constexpr std::size_t kMaxDidsPerRead = 16;

/// One data identifier. Readable in every session; writable as configured.
struct DidSpec {
  std::uint16_t id = 0;
  std::string name;
  /// Bytes of the value; 0 for a text DID takes the text's length.
  std::size_t length = 0;
  /// Fixed content served from the spec (read-only, never asks DataAccess); empty: the value
  /// comes from DataAccess.
  std::string text;
  bool writable = false;
  /// Sessions in which WriteDataByIdentifier may write it (else NRC 0x31).
  SessionMask write_sessions = session_bit(Session::extended);
  /// 0: no security; 1: SecurityAccess level 1 must be unlocked (else NRC 0x33).
  std::uint8_t write_security_level = 0;
};

/// One routine of RoutineControl.
struct RoutineSpec {
  std::uint16_t id = 0;
  std::string name;
  /// 0: startRoutine answers at once; > 0: it answers 7F 31 78 (response pending) first and
  /// the positive response this long after the request (tick() sends it).
  std::int64_t duration_ns = 0;
  SessionMask sessions = session_bit(Session::extended);  ///< else NRC 0x31
  std::uint8_t security_level = 0;                        ///< 0 or 1 (else NRC 0x33)
};

/// SecurityAccess level 1 (sub-functions 01 requestSeed, 02 sendKey).
struct SecuritySpec {
  /// First state of the seed sequence (xorshift32, never 0): the same seeds every run.
  std::uint32_t seed = 0x2F6B'1D3Au;
  std::uint32_t key_mask = 0xA5A5'5A5Au;   ///< key = seed XOR key_mask
  std::uint8_t max_attempts = 3;           ///< invalid keys until NRC 0x36 and the delay
  std::int64_t delay_ns = 10'000'000'000;  ///< after 0x36: requestSeed answers 0x37 this long
};

struct ServerSpec {
  /// S3server: a non-default session without requests this long falls back to default.
  std::int64_t s3_ns = 5'000'000'000;
  std::uint16_t p2_ms = 50;         ///< P2server_max reported by DiagnosticSessionControl
  std::uint16_t p2_star_ms = 5000;  ///< P2*server_max (multiple of 10 ms on the wire)
  /// DiagnosticSessionControl programmingSession only from extendedDiagnosticSession
  /// (from the default session: NRC 0x7E), as many vehicle manufacturers require.
  bool programming_requires_extended = true;
  /// Fixed text DIDs F190 VIN (17 characters), F187 spare part number, F18C ECU serial
  /// number; each added as a read-only text DID if not empty.
  std::string vin;
  std::string part_number;
  std::string serial_number;
  std::vector<DidSpec> dids;
  std::vector<RoutineSpec> routines;
  SecuritySpec security;
  /// The DID stored as DTC snapshot record 0x01 on each new occurrence (at most
  /// kMaxSnapshotBytes long); none: 19 04 reports no records.
  std::optional<std::uint16_t> snapshot_did;
};

/// Throws std::invalid_argument naming the field if `spec` is unusable: duplicate or
/// reserved IDs, lengths, sessions, levels, a VIN not 17 characters, P2* not a multiple of 10
/// ms, a snapshot DID that is unknown or too long. Setup phase; allocates.
void validate(const ServerSpec& spec);

/// `spec.dids` followed by the text DIDs made from vin, part_number, serial_number.
[[nodiscard]] std::vector<DidSpec> all_dids(const ServerSpec& spec);

}  // namespace hil::io::can::uds
