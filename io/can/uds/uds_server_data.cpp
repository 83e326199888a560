// UdsServer's data transmission (ISO 14229-1:2013 clause 10: ReadDataByIdentifier 0x22 §10.2,
// WriteDataByIdentifier 0x2E §10.7) and RoutineControl 0x31 (§13.2), over DataAccess and the
// spec's fixed text DIDs.

#include <algorithm>

#include "io/can/uds/uds_server.hpp"
#include "io/can/uds/uds_server_time.hpp"

namespace hil::io::can::uds {

std::size_t UdsServer::find_did(std::uint16_t id) const noexcept {
  const auto it =
      std::find_if(dids_.begin(), dids_.end(), [&](const DidSpec& d) { return d.id == id; });
  return static_cast<std::size_t>(it - dids_.begin());  // dids_.size(): none
}

std::size_t UdsServer::find_routine(std::uint16_t id) const noexcept {
  const auto it = std::find_if(spec_.routines.begin(), spec_.routines.end(),
                               [&](const RoutineSpec& r) { return r.id == id; });
  return static_cast<std::size_t>(it - spec_.routines.begin());
}

std::size_t UdsServer::did_length(std::size_t did) const noexcept {
  const DidSpec& d = dids_[did];
  return d.text.empty() ? d.length : d.text.size();
}

bool UdsServer::read_value(std::size_t did, std::span<std::uint8_t> out) noexcept {
  const std::string& text = dids_[did].text;
  if (text.empty()) return data_.read(did, out);
  std::copy(text.begin(), text.end(), out.begin());
  return true;
}

std::uint8_t UdsServer::read_did(const Request& rq, ByteWriter& w) noexcept {
  // §10.2.4: a whole number of DIDs, not more than the server takes at once (else 0x13);
  // unsupported DIDs are left out, none supported is 0x31; a value that cannot be read 0x22.
  const std::span<const std::uint8_t> b = rq.bytes;
  if (b.size() < 3 || (b.size() - 1) % 2 != 0 || (b.size() - 1) / 2 > kMaxDidsPerRead) {
    return nrc::kIncorrectMessageLengthOrInvalidFormat;
  }
  w.u8(sid::kReadDataByIdentifier + sid::kPositiveResponseOffset);
  std::size_t supported = 0;
  for (std::size_t at = 1; at < b.size(); at += 2) {
    const std::uint16_t id = get_u16(b, at);
    const std::size_t did = find_did(id);
    if (did == dids_.size()) continue;
    ++supported;
    w.u16(id);
    const std::span<std::uint8_t> value = w.reserve(did_length(did));
    if (value.empty()) continue;  // too long for the buffer: NRC 0x14 in the end
    if (!read_value(did, value)) return nrc::kConditionsNotCorrect;
  }
  return supported == 0 ? nrc::kRequestOutOfRange : 0;
}

std::uint8_t UdsServer::write_did(const Request& rq, ByteWriter& w) noexcept {
  // §10.7.4: minimum length (SID, DID, one byte) 0x13; DID writable in this session 0x31;
  // security 0x33; the value's exact length 0x13; the write itself 0x22.
  const std::span<const std::uint8_t> b = rq.bytes;
  if (b.size() < 4) return nrc::kIncorrectMessageLengthOrInvalidFormat;
  const std::uint16_t id = get_u16(b, 1);
  const std::size_t did = find_did(id);
  if (did == dids_.size() || !dids_[did].writable ||
      (dids_[did].write_sessions & session_bit(session_)) == 0) {
    return nrc::kRequestOutOfRange;
  }
  if (dids_[did].write_security_level > 0 && !unlocked_) return nrc::kSecurityAccessDenied;
  if (b.size() - 3 != did_length(did)) return nrc::kIncorrectMessageLengthOrInvalidFormat;
  if (!data_.write(did, b.subspan(3))) return nrc::kConditionsNotCorrect;
  w.u8(sid::kWriteDataByIdentifier + sid::kPositiveResponseOffset);
  w.u16(id);
  return 0;
}

std::uint8_t UdsServer::routine_control(const Request& rq, ByteWriter& w) noexcept {
  // §13.2.4: sub-function 0x12, length 0x13, routine known in this session 0x31, security
  // 0x33, sequence (start while running, stop while not, results before any start) 0x24,
  // the routine refusing 0x22.
  if (rq.sub < 0x01 || rq.sub > 0x03) return nrc::kSubFunctionNotSupported;
  const std::span<const std::uint8_t> b = rq.bytes;
  if (b.size() < 4) return nrc::kIncorrectMessageLengthOrInvalidFormat;
  const std::uint16_t id = get_u16(b, 2);
  const std::size_t routine = find_routine(id);
  if (routine == routines_.size() ||
      (spec_.routines[routine].sessions & session_bit(session_)) == 0) {
    return nrc::kRequestOutOfRange;
  }
  const RoutineSpec& spec = spec_.routines[routine];
  if (spec.security_level > 0 && !unlocked_) return nrc::kSecurityAccessDenied;
  RoutineState& state = routines_[routine];
  const auto type = static_cast<RoutineControlType>(rq.sub);
  if (type == RoutineControlType::start) {
    if (state == RoutineState::running) return nrc::kRequestSequenceError;
    if (!data_.start_routine(routine, b.subspan(4))) return nrc::kConditionsNotCorrect;
    state = RoutineState::running;
    if (spec.duration_ns > 0) {  // the final response follows from tick()
      pending_ = {.active = true,
                  .routine = routine,
                  .due_ns = saturating_add(rq.now_ns, spec.duration_ns),
                  .last_sent_ns = rq.now_ns};
      return nrc::kResponsePending;
    }
  } else if (type == RoutineControlType::stop) {
    if (state != RoutineState::running) return nrc::kRequestSequenceError;
    if (!data_.stop_routine(routine)) return nrc::kConditionsNotCorrect;
    state = RoutineState::stopped;
  } else if (state == RoutineState::idle) {
    return nrc::kRequestSequenceError;
  }
  routine_response(routine, type, w);
  return 0;
}

void UdsServer::routine_response(std::size_t routine, RoutineControlType type,
                                 ByteWriter& w) noexcept {
  // §13.2.3: 71 type RID [routineStatusRecord], the record as DataAccess gives it.
  w.u8(sid::kRoutineControl + sid::kPositiveResponseOffset);
  w.u8(static_cast<std::uint8_t>(type));
  w.u16(spec_.routines[routine].id);
  w.commit(data_.routine_status(routine, type, w.free_space()));
}

}  // namespace hil::io::can::uds
