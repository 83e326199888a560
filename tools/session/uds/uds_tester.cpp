#include "tools/session/uds/uds_tester.hpp"

#include <thread>

#include "io/can/transport/transport_factory.hpp"
#include "io/can/uds/uds_codec.hpp"

namespace hil::session {
namespace {

io::can::isotp::LinkSpec link_spec(const UdsTesterSpec& s, std::uint32_t tx_id) {
  io::can::isotp::LinkSpec l;
  l.tx_id = tx_id;
  l.rx_id = s.response_id;
  l.extended_ids = s.extended_ids;
  l.fd = s.fd;
  l.tx_dl = s.fd ? 64 : 8;
  l.block_size = s.block_size;
  l.st_min = s.st_min;
  return l;
}

}  // namespace

UdsTester::UdsTester(const UdsTesterSpec& spec)
    : spec_(spec),
      transport_(io::can::open_transport(spec.uri)),
      physical_(std::make_unique<io::can::isotp::Link>(link_spec(spec, spec.request_id))),
      functional_(std::make_unique<io::can::isotp::Link>(link_spec(spec, spec.functional_id))) {}

UdsTester::~UdsTester() = default;

std::int64_t UdsTester::now_ns() const noexcept {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now() - start_).count();
}

const io::can::isotp::Counters& UdsTester::counters() const noexcept {
  return physical_->counters();
}

void UdsTester::pump() {
  const std::int64_t now = now_ns();
  const std::size_t n = transport_->receive(inbox_, now);
  // every response, to functional requests too, comes on the physical response id: the
  // physical link reassembles it (and sends its flow control on the physical request id)
  for (std::size_t i = 0; i < n; ++i) physical_->on_frame(inbox_[i].frame, now);
  for (io::can::isotp::Link* link : {physical_.get(), functional_.get()}) {
    const std::size_t out = link->poll(now, outbox_);
    for (std::size_t i = 0; i < out; ++i) (void)transport_->send(outbox_[i], now);
  }
  transport_->flush(now);
}

UdsExchange UdsTester::request(std::span<const std::uint8_t> request) {
  namespace uds = io::can::uds;
  UdsExchange x{.request = {request.begin(), request.end()}};
  io::can::isotp::Link& link = spec_.functional ? *functional_ : *physical_;
  const Clock::time_point begin = Clock::now();
  (void)physical_->take_received();  // a late answer to an earlier request is not this one's
  if (!link.send(request, now_ns())) {
    x.timed_out = true;
    return x;
  }
  last_request_ = Clock::now();
  const bool suppressed = request.size() >= 2 &&
                          (request[1] & uds::kSuppressPositiveResponse) != 0 &&
                          request[0] != uds::sid::kReadDataByIdentifier &&
                          request[0] != uds::sid::kWriteDataByIdentifier &&
                          request[0] != uds::sid::kClearDiagnosticInformation;
  Clock::time_point deadline = Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                                  std::chrono::duration<double>(spec_.p2_s));
  while (Clock::now() < deadline) {
    pump();
    // a response comes on the physical response id (functional requests too)
    if (const auto got = physical_->take_received()) {
      x.response.assign(got->data.begin(), got->data.end());
      if (uds::negative_code(x.response) == uds::nrc::kResponsePending) {
        ++x.pending;
        x.response.clear();
        deadline = Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                      std::chrono::duration<double>(spec_.p2_star_s));
        continue;
      }
      break;
    }
    std::this_thread::sleep_for(std::chrono::microseconds(100));
  }
  x.timed_out = x.response.empty() && !suppressed;
  x.elapsed_s = std::chrono::duration<double>(Clock::now() - begin).count();
  if (request.size() >= 2 && request[0] == uds::sid::kDiagnosticSessionControl &&
      x.response.size() >= 2 && x.response[0] == uds::sid::kDiagnosticSessionControl + 0x40) {
    non_default_session_ =
        (request[1] & 0x7F) != static_cast<std::uint8_t>(uds::Session::default_session);
  }
  return x;
}

std::vector<UdsExchange> UdsTester::unlock(std::uint8_t level, std::uint32_t mask) {
  namespace uds = io::can::uds;
  std::vector<UdsExchange> out;
  std::array<std::uint8_t, 8> buffer{};
  out.push_back(request(std::span(buffer).first(uds::build_request_seed(level, buffer))));
  const std::vector<std::uint8_t>& seed = out.back().response;
  if (seed.size() != 6 || seed[0] != uds::sid::kSecurityAccess + 0x40) return out;
  const std::uint32_t value = (std::uint32_t{seed[2]} << 24) | (std::uint32_t{seed[3]} << 16) |
                              (std::uint32_t{seed[4]} << 8) | seed[5];
  if (value == 0) return out;  // already unlocked: a zero seed
  out.push_back(request(
      std::span(buffer).first(uds::build_send_key(level, uds::xor_key(value, mask), buffer))));
  return out;
}

void UdsTester::keep_alive() {
  if (!non_default_session_) return;
  if (Clock::now() - last_request_ < std::chrono::duration<double>(spec_.tester_present_s)) return;
  std::array<std::uint8_t, 2> buffer{};
  (void)request(std::span(buffer).first(io::can::uds::build_tester_present(true, buffer)));
}

void UdsTester::idle(double seconds) {
  const Clock::time_point end = Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                                   std::chrono::duration<double>(seconds));
  while (Clock::now() < end) {
    pump();
    keep_alive();
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
}

}  // namespace hil::session
