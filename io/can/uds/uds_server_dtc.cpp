// UdsServer's stored data transmission functional unit (ISO 14229-1:2013 clause 11):
// ClearDiagnosticInformation 0x14 (§11.2) and ReadDTCInformation 0x19 (§11.3) over the
// DtcStore, and the DTC snapshots taken in tick().

#include <array>

#include "io/can/uds/uds_server.hpp"

namespace hil::io::can::uds {
namespace {

/// DTCStatusAvailabilityMask (§11.3.1.2): every status bit but warningIndicatorRequested,
/// which no DTC here drives. Bits a client masks that are not available are ignored
/// (§11.3.1.3).
constexpr std::uint8_t kAvailability = 0x7F;

constexpr std::uint8_t kPositive = sid::kReadDtcInformation + sid::kPositiveResponseOffset;

}  // namespace

std::uint8_t UdsServer::clear_dtc(const Request& rq, ByteWriter& w) noexcept {
  // §11.2.4 (Figure 23): length, then a supported groupOfDTC (all, or one DTC's number).
  if (rq.bytes.size() != 4) return nrc::kIncorrectMessageLengthOrInvalidFormat;
  if (!dtcs_.clear(get_u24(rq.bytes, 1))) return nrc::kRequestOutOfRange;
  w.u8(sid::kClearDiagnosticInformation + sid::kPositiveResponseOffset);
  return 0;
}

std::uint8_t UdsServer::read_dtc(const Request& rq, ByteWriter& w) noexcept {
  switch (rq.sub) {
    case dtc_report::kNumberByStatusMask:
    case dtc_report::kByStatusMask: {
      // §11.3.1.2/3: 59 01 availability format count16 / 59 02 availability {dtc status}.
      if (rq.bytes.size() != 3) return nrc::kIncorrectMessageLengthOrInvalidFormat;
      const std::uint8_t mask = rq.bytes[2] & kAvailability;
      w.u8(kPositive);
      w.u8(rq.sub);
      w.u8(kAvailability);
      std::uint16_t count = 0;
      if (rq.sub == dtc_report::kNumberByStatusMask) w.u8(kDtcFormatIso14229);
      for (std::size_t i = 0; i < dtcs_.count(); ++i) {
        const std::uint8_t status = dtcs_.status(i);
        if ((status & mask) == 0) continue;
        ++count;
        if (rq.sub == dtc_report::kByStatusMask) {
          w.u24(dtcs_.spec(i).code);
          w.u8(status);
        }
      }
      if (rq.sub == dtc_report::kNumberByStatusMask) w.u16(count);
      return 0;
    }
    case dtc_report::kSupportedDtcs:
      // reportSupportedDTC: every DTC the server supports, whatever its status.
      if (rq.bytes.size() != 2) return nrc::kIncorrectMessageLengthOrInvalidFormat;
      w.u8(kPositive);
      w.u8(rq.sub);
      w.u8(kAvailability);
      for (std::size_t i = 0; i < dtcs_.count(); ++i) {
        w.u24(dtcs_.spec(i).code);
        w.u8(dtcs_.status(i));
      }
      return 0;
    case dtc_report::kSnapshotRecordByDtcNumber:
    case dtc_report::kExtDataRecordByDtcNumber:
      return read_dtc_record(rq, w);
    default:
      return nrc::kSubFunctionNotSupported;
  }
}

std::uint8_t UdsServer::read_dtc_record(const Request& rq, ByteWriter& w) noexcept {
  // 19 04|06 DTC(3) recordNumber. §11.3.4: an unknown DTC or record number is NRC 0x31; a
  // supported record without data answers positively without it.
  if (rq.bytes.size() != 6) return nrc::kIncorrectMessageLengthOrInvalidFormat;
  const std::optional<std::size_t> dtc = dtcs_.find(get_u24(rq.bytes, 2));
  if (!dtc) return nrc::kRequestOutOfRange;
  const std::uint8_t record = rq.bytes[5];
  const bool all = record == kAllRecords;
  const bool snapshot = rq.sub == dtc_report::kSnapshotRecordByDtcNumber;
  if (snapshot ? !(all || record == 0x01)
               : !(all || record == kExtDataOccurrenceCounter || record == kExtDataAgingCounter)) {
    return nrc::kRequestOutOfRange;
  }
  w.u8(kPositive);
  w.u8(rq.sub);
  w.u24(dtcs_.spec(*dtc).code);
  w.u8(dtcs_.status(*dtc));
  if (snapshot) {
    // §11.3.1.5: record number, number of identifiers, then {DID, data}: here record 0x01
    // with the snapshot DID, if one was stored since the last clear.
    const std::span<const std::uint8_t> data = dtcs_.snapshot(*dtc);
    if (data.empty() || snapshot_did_ >= dids_.size()) return 0;
    w.u8(0x01);
    w.u8(1);
    w.u16(dids_[snapshot_did_].id);
    w.bytes(data);
    return 0;
  }
  // §11.3.1.7: {record number, data}; both records are one byte here.
  if (all || record == kExtDataOccurrenceCounter) {
    w.u8(kExtDataOccurrenceCounter);
    w.u8(dtcs_.occurrence_counter(*dtc));
  }
  if (all || record == kExtDataAgingCounter) {
    w.u8(kExtDataAgingCounter);
    w.u8(dtcs_.aging_counter(*dtc));
  }
  return 0;
}

void UdsServer::take_snapshots() noexcept {
  if (!dtcs_.any_snapshot_wanted()) return;
  std::array<std::uint8_t, kMaxSnapshotBytes> buffer{};
  const bool have_did = snapshot_did_ < dids_.size();
  const std::span<std::uint8_t> value(buffer.data(), have_did ? did_length(snapshot_did_) : 0);
  // Without a snapshot DID, or if it cannot be read now, the occurrence has no record.
  const bool ok = have_did && read_value(snapshot_did_, value);
  const std::span<const std::uint8_t> data = ok ? value : std::span<std::uint8_t>{};
  for (std::size_t i = 0; i < dtcs_.count(); ++i) {
    if (dtcs_.snapshot_wanted(i)) dtcs_.store_snapshot(i, data);
  }
}

}  // namespace hil::io::can::uds
