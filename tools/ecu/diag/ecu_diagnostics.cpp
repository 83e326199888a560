#include "tools/ecu/diag/ecu_diagnostics.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace hil::ecu::diag {
namespace uds = io::can::uds;

namespace {

io::can::isotp::LinkSpec link_spec(const config::DiagnosticsSpec& d, std::int64_t period_ns) {
  io::can::isotp::LinkSpec l;
  l.tx_id = d.response_id;
  l.rx_id = d.request_id;
  l.functional_rx_id = d.functional_id;
  l.extended_ids = d.extended_ids;
  l.fd = d.fd;
  l.tx_dl = d.fd ? 64 : 8;
  l.padding = d.padding;
  l.block_size = d.block_size;
  // STmin: whole ms 0x00–0x7F, 100–900 µs 0xF1–0xF9 (ISO 15765-2)
  const double ms = d.st_min_s * 1000.0;
  l.st_min = ms >= 1.0 || ms == 0.0 ? static_cast<std::uint8_t>(std::lround(ms))
                                    : static_cast<std::uint8_t>(0xF0 + std::lround(ms * 10.0));
  l.max_message_bytes = uds::kMaxMessageBytes;
  l.st_min_margin_ns = period_ns;  // a late tick never shortens the tester's STmin on the wire
  return l;
}

uds::DtcSpec dtc_spec(const config::DtcSpec& d) {
  return {.code = d.code,
          .name = d.name,
          .fail_step = d.debounce.fail_step,
          .pass_step = d.debounce.pass_step,
          .fail_threshold = d.debounce.fail_threshold,
          .pass_threshold = d.debounce.pass_threshold,
          .jump_down = d.debounce.jump_down,
          .confirmation_threshold = static_cast<std::uint8_t>(d.confirmation_cycles),
          .aging_threshold = static_cast<std::uint8_t>(d.aging_cycles)};
}

}  // namespace

EcuDiagnostics::EcuDiagnostics(const config::DiagnosticsSpec& spec, io::can::CanBus& bus,
                               rt::ChannelTable& table, double period_s)
    : bus_(bus),
      table_(table),
      period_ns_(std::llround(period_s * 1e9)),
      monitor_ticks_(std::max<std::int64_t>(1, std::llround(spec.monitor_period_s / period_s))),
      request_id_(spec.request_id),
      functional_id_(spec.functional_id),
      extended_ids_(spec.extended_ids),
      response_(uds::kMaxMessageBytes) {
  uds::ServerSpec server;
  server.s3_ns = std::llround(spec.s3_s * 1e9);
  server.security = {.seed = spec.security_seed, .key_mask = spec.security_mask};
  for (const config::DidSpec& d : spec.dids) {
    uds::DidSpec s{.id = d.id,
                   .name = fmt::format("{:04X}", d.id),
                   .length = d.length,
                   .writable = d.writable,
                   .write_sessions = uds::kAllSessions,
                   .write_security_level = static_cast<std::uint8_t>(d.secured ? 1 : 0)};
    Did did{.factor = d.factor, .offset = d.offset};
    if (!d.channel.empty()) {
      did.channel = table.find(d.channel);
      if (!did.channel) {
        throw std::invalid_argument(
            fmt::format("diagnostics: DID 0x{:04X}: the ECU has no channel {}", d.id, d.channel));
      }
    } else if (d.writable) {  // kept in the ECU's memory, starting with the text
      did.memory.assign(d.length, 0);
      std::copy(d.text.begin(), d.text.end(), did.memory.begin());
    } else {
      s.text = d.text;  // fixed: the server answers it itself
    }
    server.dids.push_back(std::move(s));
    dids_.push_back(std::move(did));
  }
  for (const config::RoutineSpec& r : spec.routines) {
    const std::optional<rt::ChannelId> id = table.find(r.channel);
    if (!id) {
      throw std::invalid_argument(
          fmt::format("diagnostics: routine 0x{:04X}: the ECU has no channel {}", r.id, r.channel));
    }
    server.routines.push_back(
        {.id = r.id, .name = r.channel, .duration_ns = std::llround(r.duration_s * 1e9)});
    routines_.push_back({.channel = *id});
  }
  std::vector<uds::DtcSpec> dtcs;
  for (const config::DtcSpec& d : spec.dtcs) {
    dtcs.push_back(dtc_spec(d));
    monitors_.push_back(std::make_unique<DtcMonitor>(d.monitor, bus, table));
    dtc_status_.push_back(table.add({.name = fmt::format("diag.dtc.{}.status", d.name),
                                     .unit = "-",
                                     .direction = rt::Direction::output,
                                     .initial = uds::dtc_status::kInitial,
                                     .description = fmt::format("statusOfDTC of {:06X} ({}), "
                                                                "ISO 14229-1 Annex D",
                                                                d.code, d.name)}));
  }
  session_ = table.add({.name = "diag.session",
                        .unit = "-",
                        .direction = rt::Direction::output,
                        .initial = 1,
                        .description = "UDS session: 1 default, 2 programming, 3 extended"});
  dtcs_ = std::make_unique<uds::DtcStore>(std::move(dtcs));
  server_ = std::make_unique<uds::UdsServer>(std::move(server), *dtcs_,
                                             static_cast<uds::DataAccess&>(*this));
  link_ = std::make_unique<io::can::isotp::Link>(link_spec(spec, period_ns_));
  bus.set_unmapped_handler(this);
}

EcuDiagnostics::~EcuDiagnostics() { bus_.set_unmapped_handler(nullptr); }

bool EcuDiagnostics::take(const io::can::CanFrame& frame, std::int64_t tick) noexcept {
  if (frame.extended() != extended_ids_ ||
      (frame.id != request_id_ && frame.id != functional_id_)) {
    return false;
  }
  link_->on_frame(frame, tick * period_ns_);
  return true;
}

void EcuDiagnostics::respond(std::size_t length, std::int64_t now) noexcept {
  if (length == 0) return;
  (void)link_->send(std::span<const std::uint8_t>(response_.data(), length), now);
}

void EcuDiagnostics::step(std::int64_t tick) noexcept {
  const std::int64_t now = tick * period_ns_;
  dtcs_->set_tick(tick);
  if (const auto got = link_->take_received()) {
    requests_.fetch_add(1, std::memory_order_relaxed);
    respond(server_->handle(got->data, got->functional, now, response_), now);
  }
  respond(server_->tick(now, response_), now);
  if (server_->reset_requested() != uds::ResetType::none && !link_->busy_sending()) {
    dtcs_->start_operation_cycle();  // a reset ends the ECU's operation cycle
    server_->complete_reset();
  }
  if (tick % monitor_ticks_ == 0) {
    for (std::size_t i = 0; i < monitors_.size(); ++i) {
      const TestResult r = monitors_[i]->test();
      if (r != TestResult::not_tested) (void)dtcs_->report(i, r == TestResult::failed);
    }
  }
  for (Routine& r : routines_) {
    if (r.forced) table_.set(r.channel, *r.forced);
  }
  const std::size_t n = link_->poll(now, outbox_);
  for (std::size_t i = 0; i < n; ++i) (void)bus_.send_unmapped(outbox_[i], tick);
  for (std::size_t i = 0; i < dtc_status_.size(); ++i) {
    table_.set(dtc_status_[i], static_cast<double>(dtcs_->status(i)));
  }
  table_.set(session_, static_cast<double>(server_->session()));
}

bool EcuDiagnostics::read(std::size_t did, std::span<std::uint8_t> out) noexcept {
  const Did& d = dids_[did];
  if (!d.channel) {
    if (d.memory.size() != out.size()) return false;
    std::copy(d.memory.begin(), d.memory.end(), out.begin());
    return true;
  }
  const double v = table_.get(*d.channel);
  if (!std::isfinite(v)) return false;
  const double max = std::ldexp(1.0, static_cast<int>(8 * out.size())) - 1.0;
  const auto raw =
      static_cast<std::uint64_t>(std::clamp(std::round((v - d.offset) / d.factor), 0.0, max));
  for (std::size_t i = 0; i < out.size(); ++i) {
    out[i] = static_cast<std::uint8_t>(raw >> (8 * (out.size() - 1 - i)));
  }
  return true;
}

bool EcuDiagnostics::write(std::size_t did, std::span<const std::uint8_t> data) noexcept {
  Did& d = dids_[did];
  if (d.channel || d.memory.size() != data.size()) return false;
  std::copy(data.begin(), data.end(), d.memory.begin());
  return true;
}

bool EcuDiagnostics::start_routine(std::size_t routine,
                                   std::span<const std::uint8_t> option) noexcept {
  (void)option;
  routines_[routine].forced = 1.0;
  return true;
}

bool EcuDiagnostics::stop_routine(std::size_t routine) noexcept {
  routines_[routine].forced.reset();
  return true;
}

std::size_t EcuDiagnostics::routine_status(std::size_t routine, uds::RoutineControlType type,
                                           std::span<std::uint8_t> out) noexcept {
  if (out.empty() || type != uds::RoutineControlType::results) return 0;
  out[0] = table_.get(routines_[routine].channel) > 0.5 ? 1 : 0;
  return 1;
}

}  // namespace hil::ecu::diag
