#pragma once
// UDS (ISO 14229-1:2013, "Unified diagnostic services — Application layer") vocabulary shared
// by the simulated ECU (uds_server.hpp) and a tester: service identifiers, negative response
// codes (Annex A.1, Table A.1), DTC status bits (Annex D.2) and the sub-functions
// used here; request builders for a tester; and describe(), which turns a response into one
// line of text for logs, the console and test failures.
//
// Messages are whole A_PDUs (SID first), never frames: segmentation is ISO-TP's business.
// Builders are noexcept and write into the caller's buffer (RT-safe); the names are
// string_views of static text (RT-safe); describe() and status_text() build std::strings
// (tester side, not for the RT path).

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

namespace hil::io::can::uds {

/// The largest message ISO 15765-2 carries with a 12-bit FF_DL (classic CAN ISO-TP).
inline constexpr std::size_t kMaxMessageBytes = 4095;

/// Service identifiers (ISO 14229-1 clauses 9 … 14) and the response SIDs' rule.
namespace sid {
inline constexpr std::uint8_t kDiagnosticSessionControl = 0x10;
inline constexpr std::uint8_t kEcuReset = 0x11;
inline constexpr std::uint8_t kClearDiagnosticInformation = 0x14;
inline constexpr std::uint8_t kReadDtcInformation = 0x19;
inline constexpr std::uint8_t kReadDataByIdentifier = 0x22;
inline constexpr std::uint8_t kSecurityAccess = 0x27;
inline constexpr std::uint8_t kWriteDataByIdentifier = 0x2E;
inline constexpr std::uint8_t kRoutineControl = 0x31;
inline constexpr std::uint8_t kTesterPresent = 0x3E;
inline constexpr std::uint8_t kNegativeResponse = 0x7F;
inline constexpr std::uint8_t kPositiveResponseOffset = 0x40;  ///< response SID = SID + 0x40
}  // namespace sid

/// Negative response codes (ISO 14229-1 Annex A.1, Table A.1).
namespace nrc {
inline constexpr std::uint8_t kGeneralReject = 0x10;
inline constexpr std::uint8_t kServiceNotSupported = 0x11;
inline constexpr std::uint8_t kSubFunctionNotSupported = 0x12;
inline constexpr std::uint8_t kIncorrectMessageLengthOrInvalidFormat = 0x13;
inline constexpr std::uint8_t kResponseTooLong = 0x14;
inline constexpr std::uint8_t kBusyRepeatRequest = 0x21;
inline constexpr std::uint8_t kConditionsNotCorrect = 0x22;
inline constexpr std::uint8_t kRequestSequenceError = 0x24;
inline constexpr std::uint8_t kRequestOutOfRange = 0x31;
inline constexpr std::uint8_t kSecurityAccessDenied = 0x33;
inline constexpr std::uint8_t kInvalidKey = 0x35;
inline constexpr std::uint8_t kExceededNumberOfAttempts = 0x36;
inline constexpr std::uint8_t kRequiredTimeDelayNotExpired = 0x37;
inline constexpr std::uint8_t kResponsePending =
    0x78;  ///< requestCorrectlyReceived-ResponsePending
inline constexpr std::uint8_t kSubFunctionNotSupportedInActiveSession = 0x7E;
inline constexpr std::uint8_t kServiceNotSupportedInActiveSession = 0x7F;
}  // namespace nrc

/// statusOfDTC bits (ISO 14229-1 Annex D.2).
namespace dtc_status {
inline constexpr std::uint8_t kTestFailed = 0x01;
inline constexpr std::uint8_t kTestFailedThisOperationCycle = 0x02;
inline constexpr std::uint8_t kPendingDtc = 0x04;
inline constexpr std::uint8_t kConfirmedDtc = 0x08;
inline constexpr std::uint8_t kTestNotCompletedSinceLastClear = 0x10;
inline constexpr std::uint8_t kTestFailedSinceLastClear = 0x20;
inline constexpr std::uint8_t kTestNotCompletedThisOperationCycle = 0x40;
inline constexpr std::uint8_t kWarningIndicatorRequested = 0x80;
/// The status after power-up and after ClearDiagnosticInformation (Annex D.2.3: bits 4 and 6
/// set, all others clear).
inline constexpr std::uint8_t kInitial =
    kTestNotCompletedSinceLastClear | kTestNotCompletedThisOperationCycle;
}  // namespace dtc_status

/// ReadDTCInformation report types (ISO 14229-1 §11.3.2.2, Table 269) that the server serves.
namespace dtc_report {
inline constexpr std::uint8_t kNumberByStatusMask = 0x01;
inline constexpr std::uint8_t kByStatusMask = 0x02;
inline constexpr std::uint8_t kSnapshotRecordByDtcNumber = 0x04;
inline constexpr std::uint8_t kExtDataRecordByDtcNumber = 0x06;
inline constexpr std::uint8_t kSupportedDtcs = 0x0A;
}  // namespace dtc_report

/// suppressPosRspMsgIndicationBit: bit 7 of every sub-function byte.
inline constexpr std::uint8_t kSuppressPositiveResponse = 0x80;
/// groupOfDTC for all DTCs (Annex D.1, Table D.1).
inline constexpr std::uint32_t kAllDtcGroups = 0xFFFFFF;
/// DTCFormatIdentifier ISO_14229-1_DTCFormat (§11.3.3.1, Table 271).
inline constexpr std::uint8_t kDtcFormatIso14229 = 0x01;
/// The extended data records this server defines (vehicle-manufacturer specific numbers,
/// §11.3.1.7): one byte each.
inline constexpr std::uint8_t kExtDataOccurrenceCounter = 0x01;
inline constexpr std::uint8_t kExtDataAgingCounter = 0x02;
inline constexpr std::uint8_t kAllRecords = 0xFF;  ///< DTCSnapshot/ExtData record number "all"

/// diagnosticSessionType (§9.2.2.2, Table 25) of the sessions simulated.
enum class Session : std::uint8_t {
  default_session = 0x01,
  programming = 0x02,
  extended = 0x03,
};

/// resetType (§9.3.2.2) of the resets simulated; none = no reset requested.
enum class ResetType : std::uint8_t {
  none = 0x00,
  hard = 0x01,
  soft = 0x03,
};

/// routineControlType (RoutineControl, clause 13.2).
enum class RoutineControlType : std::uint8_t {
  start = 0x01,
  stop = 0x02,
  results = 0x03,
};

/// Annex A.1's mnemonic-style name ("requestOutOfRange"), "ISOSAEReserved" if unknown.
[[nodiscard]] std::string_view nrc_name(std::uint8_t code) noexcept;
/// "ReadDataByIdentifier" for a request SID (or its response SID), "" if not one of ours.
[[nodiscard]] std::string_view service_name(std::uint8_t sid) noexcept;
/// "testFailed" … "warningIndicatorRequested" for bit 0…7.
[[nodiscard]] std::string_view status_bit_name(unsigned bit) noexcept;
/// The set bits' names, comma separated ("testFailed, pendingDTC"); "" for 0.
[[nodiscard]] std::string status_text(std::uint8_t status);

/// The NRC of a negative response (7F sid nrc), 0 if `response` is not one.
[[nodiscard]] std::uint8_t negative_code(std::span<const std::uint8_t> response) noexcept;

/// The key a tester sends for `seed` when the server's key function is XOR with `mask`.
[[nodiscard]] constexpr std::uint32_t xor_key(std::uint32_t seed, std::uint32_t mask) noexcept {
  return seed ^ mask;
}

// Request builders: each writes one request into `out` and returns its size, 0 if it does
// not fit. `suppress` sets the suppressPosRspMsgIndicationBit.
std::size_t build_session_control(Session session, bool suppress,
                                  std::span<std::uint8_t> out) noexcept;
std::size_t build_ecu_reset(ResetType type, bool suppress, std::span<std::uint8_t> out) noexcept;
std::size_t build_clear_dtc(std::uint32_t group, std::span<std::uint8_t> out) noexcept;
/// 19 01 mask / 19 02 mask.
std::size_t build_read_dtc_by_status(std::uint8_t report_type, std::uint8_t status_mask,
                                     std::span<std::uint8_t> out) noexcept;
/// 19 04 dtc record / 19 06 dtc record.
std::size_t build_read_dtc_record(std::uint8_t report_type, std::uint32_t dtc, std::uint8_t record,
                                  std::span<std::uint8_t> out) noexcept;
std::size_t build_read_supported_dtcs(std::span<std::uint8_t> out) noexcept;
std::size_t build_read_did(std::span<const std::uint16_t> dids,
                           std::span<std::uint8_t> out) noexcept;
std::size_t build_write_did(std::uint16_t did, std::span<const std::uint8_t> data,
                            std::span<std::uint8_t> out) noexcept;
/// 27 (2·level − 1): requestSeed of `level` (1 … 63).
std::size_t build_request_seed(std::uint8_t level, std::span<std::uint8_t> out) noexcept;
/// 27 (2·level) key: sendKey with a 4-byte key.
std::size_t build_send_key(std::uint8_t level, std::uint32_t key,
                           std::span<std::uint8_t> out) noexcept;
std::size_t build_routine_control(RoutineControlType type, std::uint16_t routine,
                                  std::span<const std::uint8_t> option,
                                  std::span<std::uint8_t> out) noexcept;
std::size_t build_tester_present(bool suppress, std::span<std::uint8_t> out) noexcept;

/// One line for a response: a negative one as "7F 22 31 requestOutOfRange", positive ones of
/// each service above decoded (DTC records as "C12300 status 0x2F (testFailed, …)", DIDs as
/// hex and ASCII), anything else as its hex bytes. Two DIDs in one 62 response cannot be
/// told apart without their lengths: the bytes after the first DID show as its data.
[[nodiscard]] std::string describe(std::span<const std::uint8_t> response);

}  // namespace hil::io::can::uds
