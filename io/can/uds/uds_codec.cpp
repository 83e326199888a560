// Names and request builders of uds_codec.hpp. Request layouts per ISO 14229-1:2013:
// DiagnosticSessionControl §9.2.2, ECUReset §9.3.2, SecurityAccess §9.4.2, TesterPresent
// §9.6.2, ReadDataByIdentifier §10.2.2, WriteDataByIdentifier §10.7.2,
// ClearDiagnosticInformation §11.2.2, ReadDTCInformation §11.3.2, RoutineControl §13.2.2.

#include "io/can/uds/uds_codec.hpp"

#include <array>

#include "io/can/uds/byte_writer.hpp"

namespace hil::io::can::uds {

std::string_view nrc_name(std::uint8_t code) noexcept {
  switch (code) {
    case 0x00:
      return "positiveResponse";
    case nrc::kGeneralReject:
      return "generalReject";
    case nrc::kServiceNotSupported:
      return "serviceNotSupported";
    case nrc::kSubFunctionNotSupported:
      return "subFunctionNotSupported";
    case nrc::kIncorrectMessageLengthOrInvalidFormat:
      return "incorrectMessageLengthOrInvalidFormat";
    case nrc::kResponseTooLong:
      return "responseTooLong";
    case nrc::kBusyRepeatRequest:
      return "busyRepeatRequest";
    case nrc::kConditionsNotCorrect:
      return "conditionsNotCorrect";
    case nrc::kRequestSequenceError:
      return "requestSequenceError";
    case nrc::kRequestOutOfRange:
      return "requestOutOfRange";
    case nrc::kSecurityAccessDenied:
      return "securityAccessDenied";
    case nrc::kInvalidKey:
      return "invalidKey";
    case nrc::kExceededNumberOfAttempts:
      return "exceededNumberOfAttempts";
    case nrc::kRequiredTimeDelayNotExpired:
      return "requiredTimeDelayNotExpired";
    case nrc::kResponsePending:
      return "requestCorrectlyReceivedResponsePending";
    case nrc::kSubFunctionNotSupportedInActiveSession:
      return "subFunctionNotSupportedInActiveSession";
    case nrc::kServiceNotSupportedInActiveSession:
      return "serviceNotSupportedInActiveSession";
    default:
      return "ISOSAEReserved";
  }
}

std::string_view service_name(std::uint8_t sid) noexcept {
  const auto request = static_cast<std::uint8_t>(sid >= sid::kPositiveResponseOffset +
                                                                 sid::kDiagnosticSessionControl &&
                                                         sid != sid::kNegativeResponse
                                                     ? sid - sid::kPositiveResponseOffset
                                                     : sid);
  switch (request) {
    case sid::kDiagnosticSessionControl:
      return "DiagnosticSessionControl";
    case sid::kEcuReset:
      return "ECUReset";
    case sid::kClearDiagnosticInformation:
      return "ClearDiagnosticInformation";
    case sid::kReadDtcInformation:
      return "ReadDTCInformation";
    case sid::kReadDataByIdentifier:
      return "ReadDataByIdentifier";
    case sid::kSecurityAccess:
      return "SecurityAccess";
    case sid::kWriteDataByIdentifier:
      return "WriteDataByIdentifier";
    case sid::kRoutineControl:
      return "RoutineControl";
    case sid::kTesterPresent:
      return "TesterPresent";
    default:
      return "";
  }
}

std::string_view status_bit_name(unsigned bit) noexcept {
  static constexpr std::array<std::string_view, 8> kNames = {
      "testFailed",
      "testFailedThisOperationCycle",
      "pendingDTC",
      "confirmedDTC",
      "testNotCompletedSinceLastClear",
      "testFailedSinceLastClear",
      "testNotCompletedThisOperationCycle",
      "warningIndicatorRequested",
  };
  return bit < kNames.size() ? kNames[bit] : std::string_view{};
}

std::string status_text(std::uint8_t status) {
  std::string text;
  for (unsigned bit = 0; bit < 8; ++bit) {
    if ((status & (1U << bit)) == 0) continue;
    if (!text.empty()) text += ", ";
    text += status_bit_name(bit);
  }
  return text;
}

std::uint8_t negative_code(std::span<const std::uint8_t> response) noexcept {
  return response.size() == 3 && response[0] == sid::kNegativeResponse ? response[2] : 0;
}

namespace {

std::uint8_t sub_function(std::uint8_t value, bool suppress) noexcept {
  return static_cast<std::uint8_t>(value | (suppress ? kSuppressPositiveResponse : 0));
}

std::size_t two_bytes(std::uint8_t sid, std::uint8_t second, std::span<std::uint8_t> out) noexcept {
  ByteWriter w(out);
  w.u8(sid);
  w.u8(second);
  return w.finish();
}

}  // namespace

std::size_t build_session_control(Session session, bool suppress,
                                  std::span<std::uint8_t> out) noexcept {
  return two_bytes(sid::kDiagnosticSessionControl,
                   sub_function(static_cast<std::uint8_t>(session), suppress), out);
}

std::size_t build_ecu_reset(ResetType type, bool suppress, std::span<std::uint8_t> out) noexcept {
  return two_bytes(sid::kEcuReset, sub_function(static_cast<std::uint8_t>(type), suppress), out);
}

std::size_t build_clear_dtc(std::uint32_t group, std::span<std::uint8_t> out) noexcept {
  ByteWriter w(out);
  w.u8(sid::kClearDiagnosticInformation);
  w.u24(group);
  return w.finish();
}

std::size_t build_read_dtc_by_status(std::uint8_t report_type, std::uint8_t status_mask,
                                     std::span<std::uint8_t> out) noexcept {
  ByteWriter w(out);
  w.u8(sid::kReadDtcInformation);
  w.u8(report_type);
  w.u8(status_mask);
  return w.finish();
}

std::size_t build_read_dtc_record(std::uint8_t report_type, std::uint32_t dtc, std::uint8_t record,
                                  std::span<std::uint8_t> out) noexcept {
  ByteWriter w(out);
  w.u8(sid::kReadDtcInformation);
  w.u8(report_type);
  w.u24(dtc);
  w.u8(record);
  return w.finish();
}

std::size_t build_read_supported_dtcs(std::span<std::uint8_t> out) noexcept {
  return two_bytes(sid::kReadDtcInformation, dtc_report::kSupportedDtcs, out);
}

std::size_t build_read_did(std::span<const std::uint16_t> dids,
                           std::span<std::uint8_t> out) noexcept {
  ByteWriter w(out);
  w.u8(sid::kReadDataByIdentifier);
  for (const std::uint16_t did : dids) w.u16(did);
  return w.finish();
}

std::size_t build_write_did(std::uint16_t did, std::span<const std::uint8_t> data,
                            std::span<std::uint8_t> out) noexcept {
  ByteWriter w(out);
  w.u8(sid::kWriteDataByIdentifier);
  w.u16(did);
  w.bytes(data);
  return w.finish();
}

std::size_t build_request_seed(std::uint8_t level, std::span<std::uint8_t> out) noexcept {
  return two_bytes(sid::kSecurityAccess, static_cast<std::uint8_t>(2 * level - 1), out);
}

std::size_t build_send_key(std::uint8_t level, std::uint32_t key,
                           std::span<std::uint8_t> out) noexcept {
  ByteWriter w(out);
  w.u8(sid::kSecurityAccess);
  w.u8(static_cast<std::uint8_t>(2 * level));
  w.u32(key);
  return w.finish();
}

std::size_t build_routine_control(RoutineControlType type, std::uint16_t routine,
                                  std::span<const std::uint8_t> option,
                                  std::span<std::uint8_t> out) noexcept {
  ByteWriter w(out);
  w.u8(sid::kRoutineControl);
  w.u8(static_cast<std::uint8_t>(type));
  w.u16(routine);
  w.bytes(option);
  return w.finish();
}

std::size_t build_tester_present(bool suppress, std::span<std::uint8_t> out) noexcept {
  return two_bytes(sid::kTesterPresent, sub_function(0x00, suppress), out);
}

}  // namespace hil::io::can::uds
