// describe() of uds_codec.hpp: one line of text for a UDS response. Positive response layouts
// per ISO 14229-1:2013: DiagnosticSessionControl §9.2.3 (P2 in 1 ms, P2* in 10 ms), ECUReset
// §9.3.3, SecurityAccess §9.4.3, TesterPresent §9.6.3, ReadDataByIdentifier §10.2.3,
// WriteDataByIdentifier §10.7.3, ClearDiagnosticInformation §11.2.3, ReadDTCInformation
// §11.3.3, RoutineControl §13.2.3; negative responses §7.5 (7F sid nrc). Tester side: allocates.

#include <cstdio>
#include <string>

#include "io/can/uds/byte_writer.hpp"
#include "io/can/uds/uds_codec.hpp"
#include "io/can/uds/uds_hex.hpp"

namespace hil::io::can::uds {
namespace {

using Bytes = std::span<const std::uint8_t>;

std::string hex(std::uint32_t value, int digits) {
  char buffer[16];
  std::snprintf(buffer, sizeof buffer, "%0*X", digits, value);
  return buffer;
}

std::string hex_bytes(Bytes bytes) { return hex_text(bytes, " "); }

/// Hex bytes followed by their ASCII rendering in quotes (non-printables as '.').
std::string hex_ascii(Bytes bytes) {
  if (bytes.empty()) return "(no data)";
  std::string ascii;
  for (const std::uint8_t b : bytes) ascii += (b >= 0x20 && b < 0x7F) ? static_cast<char>(b) : '.';
  return hex_bytes(bytes) + " \"" + ascii + "\"";
}

std::string dtc_record(std::uint32_t dtc, std::uint8_t status) {
  std::string text = hex(dtc, 6) + " status 0x" + hex(status, 2);
  if (status != 0) text += " (" + status_text(status) + ")";
  return text;
}

std::string session_name(std::uint8_t type) {
  switch (type) {
    case 0x01:
      return "defaultSession";
    case 0x02:
      return "programmingSession";
    case 0x03:
      return "extendedDiagnosticSession";
    default:
      return "session 0x" + hex(type, 2);
  }
}

std::string reset_name(std::uint8_t type) {
  switch (type) {
    case 0x01:
      return "hardReset";
    case 0x02:
      return "keyOffOnReset";
    case 0x03:
      return "softReset";
    default:
      return "resetType 0x" + hex(type, 2);
  }
}

std::string report_name(std::uint8_t type) {
  switch (type) {
    case dtc_report::kNumberByStatusMask:
      return "reportNumberOfDTCByStatusMask";
    case dtc_report::kByStatusMask:
      return "reportDTCByStatusMask";
    case dtc_report::kSnapshotRecordByDtcNumber:
      return "reportDTCSnapshotRecordByDTCNumber";
    case dtc_report::kExtDataRecordByDtcNumber:
      return "reportDTCExtDataRecordByDTCNumber";
    case dtc_report::kSupportedDtcs:
      return "reportSupportedDTC";
    default:
      return "reportType 0x" + hex(type, 2);
  }
}

std::string routine_type_name(std::uint8_t type) {
  switch (type) {
    case 0x01:
      return "startRoutine";
    case 0x02:
      return "stopRoutine";
    case 0x03:
      return "requestRoutineResults";
    default:
      return "routineControlType 0x" + hex(type, 2);
  }
}

std::string ext_data_name(std::uint8_t record) {
  switch (record) {
    case kExtDataOccurrenceCounter:
      return " (occurrence counter)";
    case kExtDataAgingCounter:
      return " (aging counter)";
    default:
      return "";
  }
}

/// Body of a 59 response (after 59 reportType); "" if malformed.
std::string describe_dtc_report(std::uint8_t type, Bytes r) {
  switch (type) {
    case dtc_report::kNumberByStatusMask:
      if (r.size() != 4) return "";
      return "availability 0x" + hex(r[0], 2) + ", format 0x" + hex(r[1], 2) + ", " +
             std::to_string(get_u16(r, 2)) + " DTC";
    case dtc_report::kByStatusMask:
    case dtc_report::kSupportedDtcs: {
      if (r.empty() || (r.size() - 1) % 4 != 0) return "";
      std::string text = "availability 0x" + hex(r[0], 2);
      if (r.size() == 1) return text + "; no DTC";
      for (std::size_t at = 1; at < r.size(); at += 4) {
        text += "; " + dtc_record(get_u24(r, at), r[at + 3]);
      }
      return text;
    }
    case dtc_report::kSnapshotRecordByDtcNumber: {
      if (r.size() < 4) return "";
      std::string text = dtc_record(get_u24(r, 0), r[3]);
      if (r.size() == 4) return text + "; no snapshot record";
      if (r.size() < 8) return "";
      // The first record's first DID; its data runs to the end (one record, one DID here).
      return text + "; record 0x" + hex(r[4], 2) + ": " + std::to_string(r[5]) + " DID, " +
             hex(get_u16(r, 6), 4) + " = " + hex_ascii(r.subspan(8));
    }
    case dtc_report::kExtDataRecordByDtcNumber: {
      if (r.size() < 4 || (r.size() - 4) % 2 != 0) return "";
      std::string text = dtc_record(get_u24(r, 0), r[3]);
      if (r.size() == 4) return text + "; no extended data record";
      for (std::size_t at = 4; at < r.size(); at += 2) {  // one byte per record here
        text += "; record 0x" + hex(r[at], 2) + ext_data_name(r[at]) + " = " +
                std::to_string(r[at + 1]);
      }
      return text;
    }
    default:
      return hex_bytes(r);
  }
}

/// The decoded body of a positive response (after its SID), "" if it is malformed.
std::string describe_positive(std::uint8_t request_sid, Bytes r) {
  switch (request_sid) {
    case sid::kDiagnosticSessionControl:
      if (r.size() != 5) return "";
      return session_name(r[0]) + ": P2 " + std::to_string(get_u16(r, 1)) + " ms, P2* " +
             std::to_string(10 * get_u16(r, 3)) + " ms";
    case sid::kEcuReset:
      if (r.empty() || r.size() > 2) return "";
      return reset_name(r[0]) +
             (r.size() == 2 ? ", powerDownTime " + std::to_string(r[1]) + " s" : std::string{});
    case sid::kClearDiagnosticInformation:
      return r.empty() ? "cleared" : "";
    case sid::kReadDtcInformation: {
      if (r.empty()) return "";
      const std::string body = describe_dtc_report(r[0], r.subspan(1));
      return body.empty() ? "" : report_name(r[0]) + ": " + body;
    }
    case sid::kReadDataByIdentifier:
      if (r.size() < 2) return "";
      return hex(get_u16(r, 0), 4) + " = " + hex_ascii(r.subspan(2));
    case sid::kSecurityAccess: {
      if (r.empty()) return "";
      const std::string level = " level " + std::to_string((r[0] + 1) / 2);
      if (r[0] % 2 == 0) return r.size() == 1 ? "sendKey" + level + ": unlocked" : "";
      if (r.size() == 1) return "";
      bool zero = true;
      for (const std::uint8_t b : r.subspan(1)) zero = zero && b == 0;
      return "requestSeed" + level + ": seed " + hex_bytes(r.subspan(1)) +
             (zero ? " (already unlocked)" : "");
    }
    case sid::kWriteDataByIdentifier:
      return r.size() == 2 ? hex(get_u16(r, 0), 4) + " written" : "";
    case sid::kRoutineControl:
      if (r.size() < 3) return "";
      return routine_type_name(r[0]) + " " + hex(get_u16(r, 1), 4) +
             (r.size() > 3 ? ": " + hex_bytes(r.subspan(3)) : std::string{});
    case sid::kTesterPresent:
      return r.size() == 1 && r[0] == 0 ? "ok" : "";
    default:
      return "";
  }
}

}  // namespace

std::string describe(std::span<const std::uint8_t> response) {
  if (response.empty()) return "(no response)";
  const std::uint8_t first = response[0];
  if (first == sid::kNegativeResponse) {
    if (response.size() != 3) return "malformed negative response: " + hex_bytes(response);
    return hex_bytes(response) + " " + std::string(nrc_name(response[2]));
  }
  if (first < sid::kPositiveResponseOffset) return "request: " + hex_bytes(response);
  const auto request_sid = static_cast<std::uint8_t>(first - sid::kPositiveResponseOffset);
  const std::string_view name = service_name(request_sid);
  if (name.empty()) return hex_bytes(response);
  const std::string body = describe_positive(request_sid, response.subspan(1));
  if (body.empty()) return std::string(name) + " (malformed): " + hex_bytes(response);
  return std::string(name) + " " + body;
}

}  // namespace hil::io::can::uds
