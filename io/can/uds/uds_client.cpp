#include "io/can/uds/uds_client.hpp"

#include <algorithm>

#include "io/can/uds/uds_codec.hpp"

namespace hil::io::can::uds {
namespace {

isotp::LinkSpec link_spec(const ClientSpec& s, std::uint32_t tx_id) {
  isotp::LinkSpec l;
  l.tx_id = tx_id;
  l.rx_id = s.response_id;
  l.extended_ids = s.extended_ids;
  l.fd = s.fd;
  l.tx_dl = s.fd ? 64 : 8;
  l.padding = s.padding;
  l.block_size = s.block_size;
  l.st_min = s.st_min;
  l.max_message_bytes = kMaxMessageBytes;
  return l;
}

constexpr std::uint8_t kPositive(std::uint8_t sid) noexcept {
  return static_cast<std::uint8_t>(sid + sid::kPositiveResponseOffset);
}

}  // namespace

bool suppresses_positive_response(std::span<const std::uint8_t> request) noexcept {
  if (request.size() < 2 || (request[1] & kSuppressPositiveResponse) == 0) return false;
  // the services with a sub-function byte (ISO 14229-1 clauses 9–14, those a tester here uses
  // and CommunicationControl 0x28, ControlDTCSetting 0x85, LinkControl 0x87)
  constexpr std::array<std::uint8_t, 9> kWithSubFunction{sid::kDiagnosticSessionControl,
                                                         sid::kEcuReset,
                                                         sid::kReadDtcInformation,
                                                         sid::kSecurityAccess,
                                                         0x28,
                                                         sid::kRoutineControl,
                                                         sid::kTesterPresent,
                                                         0x85,
                                                         0x87};
  return std::find(kWithSubFunction.begin(), kWithSubFunction.end(), request[0]) !=
         kWithSubFunction.end();
}

UdsClient::UdsClient(const ClientSpec& spec)
    : spec_(spec),
      physical_(std::make_unique<isotp::Link>(link_spec(spec, spec.request_id))),
      functional_(std::make_unique<isotp::Link>(link_spec(spec, spec.functional_id))),
      request_(kMaxMessageBytes),
      response_(kMaxMessageBytes) {}

UdsClient::~UdsClient() = default;

const isotp::Counters& UdsClient::counters() const noexcept { return physical_->counters(); }

bool UdsClient::request(std::span<const std::uint8_t> request, bool functional,
                        std::int64_t now) noexcept {
  const std::size_t single_frame_max = spec_.fd ? 62 : 7;
  if (busy() || request.empty() || request.size() > request_.size() ||
      (functional && request.size() > single_frame_max)) {
    return false;
  }
  isotp::Link& link = functional ? *functional_ : *physical_;
  if (link.busy_sending()) return false;  // a TesterPresent still on its way
  (void)physical_->take_received();       // a late answer to an earlier request is not this one's
  std::copy(request.begin(), request.end(), request_.begin());
  if (!link.send(request, now)) return false;
  functional_request_ = functional;
  suppressed_ = suppresses_positive_response(request);
  tx_before_ = link.counters().tx_messages;
  outcome_ = {.sent_ns = now};
  response_size_ = 0;
  deadline_ = now + spec_.p2_ns;
  last_request_ = now;
  waiting_ = true;
  return true;
}

void UdsClient::on_frame(const CanFrame& frame, std::int64_t now) noexcept {
  // Flow control for our requests, and every response (to functional requests too). The
  // functional link sends single frames only and receives nothing: fed a multi-frame
  // response it would answer with a flow control of its own, on the functional id.
  physical_->on_frame(frame, now);
}

void UdsClient::track_session(std::span<const std::uint8_t> response) noexcept {
  if (response.size() >= 2 && response[0] == kPositive(sid::kDiagnosticSessionControl)) {
    non_default_session_ =
        (response[1] & 0x7F) != static_cast<std::uint8_t>(Session::default_session);
  } else if (!response.empty() && response[0] == kPositive(sid::kEcuReset)) {
    non_default_session_ = false;  // a reset ends in the default session
  }
}

void UdsClient::finish(std::int64_t now) noexcept {
  waiting_ = false;
  done_ = true;
  outcome_.done_ns = now;
  outcome_.response = std::span<const std::uint8_t>(response_.data(), response_size_);
}

std::size_t UdsClient::poll(std::int64_t now, std::span<CanFrame> out) noexcept {
  if (const auto got = physical_->take_received(); got && waiting_) {
    if (negative_code(got->data) == nrc::kResponsePending) {
      ++outcome_.pending;
      deadline_ = now + spec_.p2_star_ns;
    } else {
      response_size_ = std::min(got->data.size(), response_.size());
      std::copy_n(got->data.begin(), response_size_, response_.begin());
      track_session(std::span<const std::uint8_t>(response_.data(), response_size_));
      finish(now);
    }
  }
  isotp::Link& link = functional_request_ ? *functional_ : *physical_;
  if (waiting_ && link.busy_sending()) deadline_ = std::max(deadline_, now + spec_.p2_ns);
  if (waiting_ && now >= deadline_) {
    outcome_.suppressed = suppressed_ && outcome_.pending == 0;
    outcome_.timed_out = !outcome_.suppressed;
    if (outcome_.suppressed && request_[0] == sid::kDiagnosticSessionControl) {
      non_default_session_ =
          (request_[1] & 0x7F) != static_cast<std::uint8_t>(Session::default_session);
    } else if (outcome_.suppressed && request_[0] == sid::kEcuReset) {
      non_default_session_ = false;  // a reset ends in the default session
    }
    finish(now);
  }
  if (!waiting_ && non_default_session_ && spec_.tester_present_ns > 0 &&
      now - last_request_ >= spec_.tester_present_ns && !physical_->busy_sending()) {
    std::array<std::uint8_t, 2> present{};
    if (physical_->send(std::span(present).first(build_tester_present(true, present)), now)) {
      last_request_ = now;
    }
  }
  std::size_t n = physical_->poll(now, out);
  n += functional_->poll(now, out.subspan(n));
  // ISO-TP gave up sending (N_As, N_Bs, the ECU's overflow): the request never went out whole
  if (waiting_ && !link.busy_sending() && link.counters().tx_messages == tx_before_) {
    outcome_.refused = true;
    finish(now);
  }
  return n;
}

std::optional<Outcome> UdsClient::take_outcome() noexcept {
  if (!done_) return std::nullopt;
  done_ = false;
  return outcome_;
}

}  // namespace hil::io::can::uds
