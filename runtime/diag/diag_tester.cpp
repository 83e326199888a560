#include "runtime/diag/diag_tester.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace hil::runtime {
namespace uds = io::can::uds;

namespace {

constexpr std::size_t kQueueDepth = 8;

uds::ClientSpec client_spec(const config::DiagnosticsSpec& d) {
  return {.request_id = d.request_id,
          .response_id = d.response_id,
          .functional_id = d.functional_id,
          .extended_ids = d.extended_ids,
          .fd = d.fd,
          .padding = d.padding};
}

}  // namespace

DiagTester::DiagTester(const config::DiagnosticsSpec& spec, io::can::CanBus& bus,
                       rt::ChannelTable& table, std::int64_t period_ns)
    : bus_(bus),
      table_(table),
      client_(client_spec(spec)),
      period_ns_(period_ns),
      read_every_ticks_(
          spec.read_dtcs_every_s.value_or(0.0) > 0
              ? std::max<std::int64_t>(
                    1, std::llround(*spec.read_dtcs_every_s * 1e9 / static_cast<double>(period_ns)))
              : 0),
      response_id_(spec.response_id),
      extended_ids_(spec.extended_ids),
      queue_(kQueueDepth) {
  for (const config::DtcSpec& d : spec.dtcs) {
    codes_.push_back(d.code);
    status_.push_back(table.add(
        {.name = fmt::format("diag.dtc.{}.status", d.name),
         .unit = "-",
         .direction = rt::Direction::output,
         .initial = -1.0,
         .description = fmt::format("statusOfDTC of {:06X} ({}) as the rig's tester last read "
                                    "it (19 02 FF every {:g} ms), −1 before the first read",
                                    d.code, d.name, spec.read_dtcs_every_s.value_or(0.0) * 1e3)}));
  }
  replies_ = table.add({.name = "diag.tester.replies",
                        .unit = "-",
                        .direction = rt::Direction::output,
                        .description = "UDS requests of the API the rig's tester completed"});
  bus.set_unmapped_handler(this);
}

DiagTester::~DiagTester() { bus_.set_unmapped_handler(nullptr); }

bool DiagTester::take(const io::can::CanFrame& frame, std::int64_t tick) noexcept {
  if (frame.extended() != extended_ids_ || frame.id != response_id_) return false;
  client_.on_frame(frame, tick * period_ns_);
  return true;
}

bool DiagTester::submit(std::uint64_t id, std::span<const std::uint8_t> request,
                        bool functional) noexcept {
  const std::size_t single_frame = client_.spec().fd ? 62 : 7;  // functional: one frame
  if (queue_size_ == queue_.size() || request.empty() || request.size() > uds::kMaxMessageBytes ||
      (functional && request.size() > single_frame)) {
    return false;
  }
  Queued& q = queue_[(queue_head_ + queue_size_) % queue_.size()];
  q.id = id;
  q.size = static_cast<std::uint16_t>(request.size());
  q.functional = functional;
  std::copy(request.begin(), request.end(), q.bytes.begin());
  ++queue_size_;
  return true;
}

void DiagTester::read_statuses(std::span<const std::uint8_t> response) noexcept {
  // 59 02 availabilityMask then 4 bytes per DTC: 3 of DTC, 1 of status (ISO 14229-1 §11.3.3)
  if (response.size() < 3 || response[0] != uds::sid::kReadDtcInformation + 0x40 ||
      response[1] != uds::dtc_report::kByStatusMask || (response.size() - 3) % 4 != 0) {
    for (const rt::ChannelId id : status_) table_.set(id, -1.0);  // no answer: unknown
    return;
  }
  for (std::size_t i = 0; i < codes_.size(); ++i) {
    std::uint8_t status = 0;  // not reported under mask FF: no bit set
    for (std::size_t at = 3; at + 4 <= response.size(); at += 4) {
      const std::uint32_t code = (std::uint32_t{response[at]} << 16) |
                                 (std::uint32_t{response[at + 1]} << 8) | response[at + 2];
      if (code == codes_[i]) status = response[at + 3];
    }
    table_.set(status_[i], static_cast<double>(status));
  }
  dtc_reads_.fetch_add(1, std::memory_order_relaxed);
}

void DiagTester::start_next(std::int64_t tick, std::int64_t now) noexcept {
  if (queue_size_ > 0) {
    const Queued& q = queue_[queue_head_];
    queue_head_ = (queue_head_ + 1) % queue_.size();
    --queue_size_;
    current_sent_tick_ = tick;
    if (client_.request(std::span(q.bytes).first(q.size), q.functional, now)) {
      current_ = q.id;
      return;
    }
    UdsResult r{.command = q.id, .sent_tick = tick, .done_tick = tick, .refused = true};
    (void)results_.try_push(r);
    table_.set(replies_, ++replies_count_);
    replies_total_.fetch_add(1, std::memory_order_relaxed);
    return;
  }
  if (read_every_ticks_ > 0 && tick >= next_read_) {
    while (next_read_ <= tick) next_read_ += read_every_ticks_;
    std::array<std::uint8_t, 3> read{};
    reading_ = client_.request(std::span(read).first(uds::build_read_dtc_by_status(
                                   uds::dtc_report::kByStatusMask, 0xFF, read)),
                               false, now);
  }
}

void DiagTester::run(const rt::TickContext& c) noexcept {
  const std::int64_t now = c.tick * period_ns_;
  // poll first: a response that completed in this tick's read phase ends its request
  std::size_t n = client_.poll(now, outbox_);
  if (const auto done = client_.take_outcome()) {
    if (reading_) {
      read_statuses(done->response);
      reading_ = false;
    } else {
      UdsResult r{.command = current_,
                  .sent_tick = current_sent_tick_,
                  .done_tick = c.tick,
                  .size = static_cast<std::uint16_t>(done->response.size()),
                  .pending = static_cast<std::uint16_t>(std::min(done->pending, 0xFFFF)),
                  .timed_out = done->timed_out,
                  .refused = done->refused};
      std::copy(done->response.begin(), done->response.end(), r.response.begin());
      (void)results_.try_push(r);
      table_.set(replies_, ++replies_count_);
      replies_total_.fetch_add(1, std::memory_order_relaxed);
    }
  }
  if (!client_.busy()) {
    start_next(c.tick, now);
    n += client_.poll(now, std::span(outbox_).subspan(n));  // its first frame now
  }
  for (std::size_t i = 0; i < n; ++i) (void)bus_.send_unmapped(outbox_[i], c.tick);
}

std::vector<UdsResult> DiagTester::take_results() {
  std::vector<UdsResult> out;
  UdsResult r;
  while (results_.try_pop(r)) out.push_back(r);
  return out;
}

}  // namespace hil::runtime
