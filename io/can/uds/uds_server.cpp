// UdsServer: request dispatch and the response rules, sessions and timing, SecurityAccess,
// ECUReset, TesterPresent. DTC services in uds_server_dtc.cpp, DIDs and routines in
// uds_server_data.cpp. Clauses are those of ISO 14229-1:2013 unless another part is named.

#include "io/can/uds/uds_server.hpp"

#include <algorithm>
#include <array>
#include <limits>

#include "io/can/uds/uds_server_time.hpp"

namespace hil::io::can::uds {
namespace {

/// §7.5: a server does not answer a functionally addressed request with these NRCs, so that
/// the ECUs it does not concern stay silent.
bool suppressed_when_functional(std::uint8_t code) noexcept {
  switch (code) {
    case nrc::kServiceNotSupported:
    case nrc::kSubFunctionNotSupported:
    case nrc::kRequestOutOfRange:
    case nrc::kSubFunctionNotSupportedInActiveSession:
    case nrc::kServiceNotSupportedInActiveSession:
      return true;
    default:
      return false;
  }
}

/// The negative response 7F sid nrc; 0 if `out` cannot hold it.
std::size_t negative(std::uint8_t request_sid, std::uint8_t code,
                     std::span<std::uint8_t> out) noexcept {
  ByteWriter w(out);
  w.u8(sid::kNegativeResponse);
  w.u8(request_sid);
  w.u8(code);
  return w.finish();
}

/// xorshift32 (Marsaglia 2003): a deterministic, never-zero seed sequence from a non-zero
/// state; a zero seed would mean "already unlocked" (§9.4.1).
std::uint32_t next_seed(std::uint32_t& state) noexcept {
  state ^= state << 13;
  state ^= state >> 17;
  state ^= state << 5;
  return state;
}

ServerSpec validated(ServerSpec spec) {
  validate(spec);
  return spec;
}

}  // namespace

UdsServer::UdsServer(ServerSpec spec, DtcStore& dtcs, DataAccess& data)
    : spec_(validated(std::move(spec))),
      dids_(all_dids(spec_)),
      dtcs_(dtcs),
      data_(data),
      snapshot_did_(spec_.snapshot_did ? find_did(*spec_.snapshot_did) : dids_.size()),
      seed_state_(spec_.security.seed),
      routines_(spec_.routines.size(), RoutineState::idle) {}

std::size_t UdsServer::handle(std::span<const std::uint8_t> request, bool functional,
                              std::int64_t now_ns, std::span<std::uint8_t> response) noexcept {
  if (request.empty()) return 0;
  last_activity_ns_ = now_ns;  // ISO 14229-2: any request restarts S3server
  Request rq{.bytes = request, .functional = functional, .now_ns = now_ns};
  ByteWriter w(response);
  const std::uint8_t sid = request[0];
  // While a response is pending the server serves nothing else but keeps the session alive.
  std::uint8_t code =
      pending_.active && sid != sid::kTesterPresent ? nrc::kBusyRepeatRequest : dispatch(rq, w);
  if (code == 0) {
    if (rq.suppress) return 0;  // suppressPosRspMsgIndicationBit
    if (!w.overflow()) return w.size();
    code = nrc::kResponseTooLong;
  }
  if (functional && suppressed_when_functional(code)) return 0;
  return negative(sid, code, response);
}

std::uint8_t UdsServer::dispatch(Request& rq, ByteWriter& w) noexcept {
  using Serve = std::uint8_t (UdsServer::*)(const Request&, ByteWriter&) noexcept;
  struct Service {
    std::uint8_t sid;
    SessionMask sessions;  // where the service exists at all (else NRC 0x7F)
    bool sub_function;
    Serve serve;
  };
  // Which services each session offers (the per-session service table §9.2.1 asks every
  // server to define): reading and clearing everywhere, security, writing and routines only
  // outside the default session.
  static constexpr std::array<Service, 9> kServices{{
      {sid::kDiagnosticSessionControl, kAllSessions, true, &UdsServer::session_control},
      {sid::kEcuReset, kAllSessions, true, &UdsServer::ecu_reset},
      {sid::kClearDiagnosticInformation, kAllSessions, false, &UdsServer::clear_dtc},
      {sid::kReadDtcInformation, kAllSessions, true, &UdsServer::read_dtc},
      {sid::kReadDataByIdentifier, kAllSessions, false, &UdsServer::read_did},
      {sid::kSecurityAccess, kNonDefaultSessions, true, &UdsServer::security_access},
      {sid::kWriteDataByIdentifier, kNonDefaultSessions, false, &UdsServer::write_did},
      {sid::kRoutineControl, kNonDefaultSessions, true, &UdsServer::routine_control},
      {sid::kTesterPresent, kAllSessions, true, &UdsServer::tester_present},
  }};
  const std::uint8_t sid = rq.bytes[0];
  const auto* const service = std::find_if(kServices.begin(), kServices.end(),
                                           [&](const Service& s) { return s.sid == sid; });
  // §7.5 general server response behaviour, in its order.
  if (service == kServices.end()) return nrc::kServiceNotSupported;
  if ((service->sessions & session_bit(session_)) == 0) {
    return nrc::kServiceNotSupportedInActiveSession;
  }
  if (service->sub_function) {
    if (rq.bytes.size() < 2) return nrc::kIncorrectMessageLengthOrInvalidFormat;
    rq.sub = rq.bytes[1] & static_cast<std::uint8_t>(~kSuppressPositiveResponse);
    rq.suppress = (rq.bytes[1] & kSuppressPositiveResponse) != 0;
  }
  return (this->*service->serve)(rq, w);
}

std::size_t UdsServer::tick(std::int64_t now_ns, std::span<std::uint8_t> response) noexcept {
  take_snapshots();
  if (pending_.active) {
    if (now_ns >= pending_.due_ns) {  // the routine's start completes: its positive response
      pending_.active = false;
      last_activity_ns_ = now_ns;  // S3 restarts when the response is sent (ISO 14229-2)
      ByteWriter w(response);
      routine_response(pending_.routine, RoutineControlType::start, w);
      return w.finish();
    }
    // ISO 14229-2: each 7F xx 78 restarts the client's P2* timer; repeat well before it ends.
    const std::int64_t repeat_ns = std::int64_t{spec_.p2_star_ms} * 1'000'000 / 2;
    if (!reached(now_ns, pending_.last_sent_ns, repeat_ns)) return 0;
    pending_.last_sent_ns = now_ns;
    return negative(sid::kRoutineControl, nrc::kResponsePending, response);
  }
  if (session_ != Session::default_session && reached(now_ns, last_activity_ns_, spec_.s3_ns)) {
    enter_session(Session::default_session);  // S3server timeout: no response
  }
  return 0;
}

void UdsServer::enter_session(Session s) noexcept {
  // §9.2.1 (Figure 7): every change out of a non-default session re-locks security and ends
  // what depended on it or is not offered in the new session; entering default ends what
  // default does not support. Here: running routines not allowed in `s` or needing security.
  for (std::size_t i = 0; i < routines_.size(); ++i) {
    const RoutineSpec& r = spec_.routines[i];
    if (routines_[i] != RoutineState::running) continue;
    if ((r.sessions & session_bit(s)) != 0 && r.security_level == 0) continue;
    (void)data_.stop_routine(i);
    routines_[i] = RoutineState::stopped;
  }
  session_ = s;
  unlocked_ = false;
  seed_sent_ = false;
}

void UdsServer::complete_reset() noexcept {
  // §9.3.1: after the reset the server runs the default session.
  reset_ = ResetType::none;
  session_ = Session::default_session;
  unlocked_ = false;
  seed_sent_ = false;
  std::fill(routines_.begin(), routines_.end(), RoutineState::idle);
  pending_ = Pending{};
}

std::uint8_t UdsServer::session_control(const Request& rq, ByteWriter& w) noexcept {
  if (rq.sub < 0x01 || rq.sub > 0x03) return nrc::kSubFunctionNotSupported;
  const auto target = static_cast<Session>(rq.sub);
  if (target == Session::programming && spec_.programming_requires_extended &&
      session_ == Session::default_session) {
    return nrc::kSubFunctionNotSupportedInActiveSession;
  }
  if (rq.bytes.size() != 2) return nrc::kIncorrectMessageLengthOrInvalidFormat;
  enter_session(target);
  // §9.2.3: 50 type P2server_max (1 ms) P2*server_max (10 ms).
  w.u8(sid::kDiagnosticSessionControl + sid::kPositiveResponseOffset);
  w.u8(rq.sub);
  w.u16(spec_.p2_ms);
  w.u16(static_cast<std::uint16_t>(spec_.p2_star_ms / 10));
  return 0;
}

std::uint8_t UdsServer::ecu_reset(const Request& rq, ByteWriter& w) noexcept {
  if (rq.sub != static_cast<std::uint8_t>(ResetType::hard) &&
      rq.sub != static_cast<std::uint8_t>(ResetType::soft)) {
    return nrc::kSubFunctionNotSupported;
  }
  if (rq.bytes.size() != 2) return nrc::kIncorrectMessageLengthOrInvalidFormat;
  reset_ = static_cast<ResetType>(rq.sub);  // §9.3.1: the response goes before the reset
  w.u8(sid::kEcuReset + sid::kPositiveResponseOffset);
  w.u8(rq.sub);
  return 0;
}

// A member like its siblings, for the dispatch table.
// NOLINTNEXTLINE(readability-convert-member-functions-to-static)
std::uint8_t UdsServer::tester_present(const Request& rq, ByteWriter& w) noexcept {
  // §9.6: zeroSubFunction only; its purpose (keeping the session alive) is served above.
  if (rq.sub != 0x00) return nrc::kSubFunctionNotSupported;
  if (rq.bytes.size() != 2) return nrc::kIncorrectMessageLengthOrInvalidFormat;
  w.u8(sid::kTesterPresent + sid::kPositiveResponseOffset);
  w.u8(0x00);
  return 0;
}

std::uint8_t UdsServer::security_access(const Request& rq, ByteWriter& w) noexcept {
  constexpr std::uint8_t kRequestSeed = 0x01;
  constexpr std::uint8_t kSendKey = 0x02;
  const SecuritySpec& sec = spec_.security;
  if (rq.sub != kRequestSeed && rq.sub != kSendKey) return nrc::kSubFunctionNotSupported;
  if (delay_active_ && rq.now_ns >= delay_until_ns_) delay_active_ = false;
  if (rq.sub == kRequestSeed) {
    if (rq.bytes.size() != 2) return nrc::kIncorrectMessageLengthOrInvalidFormat;
    if (delay_active_) return nrc::kRequiredTimeDelayNotExpired;  // §9.4.1 delay timer
    w.u8(sid::kSecurityAccess + sid::kPositiveResponseOffset);
    w.u8(kRequestSeed);
    if (unlocked_) {  // §9.4.1: an unlocked level answers a seed of zero
      w.u32(0);
      return 0;
    }
    seed_ = next_seed(seed_state_);
    seed_sent_ = true;
    w.u32(seed_);
    return 0;
  }
  if (rq.bytes.size() != 6) return nrc::kIncorrectMessageLengthOrInvalidFormat;
  if (!seed_sent_) return nrc::kRequestSequenceError;  // sendKey without a seed
  seed_sent_ = false;  // §9.4.1: after any key the client starts again with requestSeed
  if (get_u32(rq.bytes, 2) != xor_key(seed_, sec.key_mask)) {
    if (++failed_attempts_ < sec.max_attempts) return nrc::kInvalidKey;
    failed_attempts_ = 0;  // the delay starts; after it the client has max_attempts again
    delay_active_ = true;
    delay_until_ns_ = saturating_add(rq.now_ns, sec.delay_ns);
    return nrc::kExceededNumberOfAttempts;
  }
  unlocked_ = true;
  failed_attempts_ = 0;
  w.u8(sid::kSecurityAccess + sid::kPositiveResponseOffset);
  w.u8(kSendKey);
  return 0;
}

}  // namespace hil::io::can::uds
