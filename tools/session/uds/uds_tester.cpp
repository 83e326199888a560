#include "tools/session/uds/uds_tester.hpp"

#include <thread>

#include "io/can/transport/transport_factory.hpp"

namespace hil::session {
namespace {

io::can::uds::ClientSpec client_spec(const UdsTesterSpec& s) {
  const auto ns = [](double seconds) { return static_cast<std::int64_t>(seconds * 1e9); };
  return {.request_id = s.request_id,
          .response_id = s.response_id,
          .functional_id = s.functional_id,
          .extended_ids = s.extended_ids,
          .fd = s.fd,
          .block_size = s.block_size,
          .st_min = s.st_min,
          .p2_ns = ns(s.p2_s),
          .p2_star_ns = ns(s.p2_star_s),
          .tester_present_ns = ns(s.tester_present_s)};
}

}  // namespace

UdsTester::UdsTester(const UdsTesterSpec& spec)
    : spec_(spec), transport_(io::can::open_transport(spec.uri)), client_(client_spec(spec)) {}

UdsTester::~UdsTester() = default;

std::int64_t UdsTester::now_ns() const noexcept {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now() - start_).count();
}

void UdsTester::pump() {
  const std::int64_t now = now_ns();
  const std::size_t n = transport_->receive(inbox_, now);
  for (std::size_t i = 0; i < n; ++i) client_.on_frame(inbox_[i].frame, now);
  const std::size_t out = client_.poll(now, outbox_);
  for (std::size_t i = 0; i < out; ++i) (void)transport_->send(outbox_[i], now);
  transport_->flush(now);
}

UdsExchange UdsTester::request(std::span<const std::uint8_t> request) {
  UdsExchange x{.request = {request.begin(), request.end()}};
  if (!client_.request(request, spec_.functional, now_ns())) {
    x.timed_out = true;
    return x;
  }
  for (;;) {
    pump();
    if (const auto done = client_.take_outcome()) {
      x.response.assign(done->response.begin(), done->response.end());
      x.pending = done->pending;
      x.timed_out = done->timed_out || done->refused;
      x.elapsed_s = static_cast<double>(done->done_ns - done->sent_ns) * 1e-9;
      return x;
    }
    std::this_thread::sleep_for(std::chrono::microseconds(100));
  }
}

void UdsTester::idle(double seconds) {
  const Clock::time_point end = Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                                   std::chrono::duration<double>(seconds));
  while (Clock::now() < end) {
    pump();  // the client keeps a non-default session alive
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
}

}  // namespace hil::session
