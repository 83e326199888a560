#include "runtime/commands/command_queue.hpp"

#include <cmath>

#include <fmt/format.h>

#include <cstring>
#include <stdexcept>

#include "config/fault_spec.hpp"
#include "io/can/uds/uds_hex.hpp"
#include "runtime/diag/diag_tester.hpp"

namespace hil::runtime {

UdsRequestText parse_uds_request(std::string_view text) {
  UdsRequestText out;
  constexpr std::string_view kFunctional = "functional ";
  if (text.starts_with(kFunctional)) {
    out.functional = true;
    text.remove_prefix(kFunctional.size());
  }
  try {
    out.bytes = io::can::uds::parse_hex_bytes(text);
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument(fmt::format("UDS request \"{}\": {}", text, e.what()));
  }
  if (out.bytes.empty()) throw std::invalid_argument("a UDS request needs at least its service id");
  if (out.bytes.size() > 4095) {
    throw std::invalid_argument(
        fmt::format("UDS request of {} bytes: ISO-TP carries at most 4095", out.bytes.size()));
  }
  if (out.functional && out.bytes.size() > 7) {
    throw std::invalid_argument(fmt::format(
        "functional UDS request of {} bytes: a functional request is one frame (7 bytes)",
        out.bytes.size()));
  }
  return out;
}

std::string uds_request_text(std::span<const std::uint8_t> bytes, bool functional) {
  return (functional ? "functional " : "") + io::can::uds::hex_text(bytes);
}

CommandApplier::CommandApplier(rt::ChannelTable& table, runtime::FaultEngine& faults,
                               DiagTester* tester)
    : table_(table),
      faults_(faults),
      tester_(tester),
      values_(table.size()),
      before_(table.size()),
      is_forced_(table.size()) {
  forced_.reserve(table.size());
}

bool CommandApplier::apply(const Command& c, runtime::PreparedFault*& garbage) noexcept {
  garbage = nullptr;
  switch (c.kind) {
    case Command::Kind::write:
      values_[c.channel.index] = c.value;
      if (!is_forced_[c.channel.index]) {
        is_forced_[c.channel.index] = true;
        before_[c.channel.index] = table_.get(c.channel);
        forced_.push_back(c.channel);  // within the capacity: every channel
      }
      table_.set(c.channel, c.value);
      return true;
    case Command::Kind::release:
      if (!is_forced_[c.channel.index]) return false;
      is_forced_[c.channel.index] = false;
      std::erase(forced_, c.channel);
      // nothing else writes it (no frame, no event since): it is what it was before the force
      if (table_.get(c.channel) == values_[c.channel.index]) {
        table_.set(c.channel, before_[c.channel.index]);
      }
      return true;
    case Command::Kind::fault: {
      std::unique_ptr<runtime::PreparedFault> prepared(c.fault);
      const bool ok = faults_.inject(prepared);
      garbage = prepared.release();  // the shell (or the refused fault): freed off the RT thread
      return ok;
    }
    case Command::Kind::marker:
      return true;
    case Command::Kind::uds:
      return tester_ != nullptr && tester_->submit(c.id, std::span(c.bytes, c.size), c.functional);
    case Command::Kind::clear:
      return faults_.clear(std::string_view(c.name.data(), strnlen(c.name.data(), c.name.size())));
  }
  return false;
}

void CommandApplier::hold() noexcept {
  for (const rt::ChannelId id : forced_) table_.set(id, values_[id.index]);
}

void CommandQueue::apply(std::int64_t tick) noexcept {
  Command command;
  while (commands_.try_pop(command)) {
    Ack ack{.id = command.id, .tick = tick};
    ack.ok = applier_.apply(command, ack.garbage);
    (void)acks_.try_push(ack);  // sized as the command ring: never full
  }
  applier_.hold();
}

CommandQueue::CommandQueue(rt::ChannelTable& table, const std::vector<io::can::CanBusSpec>& buses,
                           FaultEngine& faults, DiagTester* tester, std::size_t capacity)
    : table_(table),
      buses_(buses),
      faults_(faults),
      applier_(table, faults, tester),
      commands_(capacity),
      acks_(capacity),
      capacity_(capacity),
      tester_(tester) {}

CommandQueue::~CommandQueue() {
  Command c;
  while (commands_.try_pop(c)) delete c.fault;  // never applied
  Ack a;
  while (acks_.try_pop(a)) delete a.garbage;
}

std::uint64_t CommandQueue::submit(Command c, std::string line) {
  const std::lock_guard lock(submit_mutex_);
  return submit_locked(c, std::move(line));
}

std::uint64_t CommandQueue::submit_locked(Command c, std::string line) {
  c.id = next_id_;
  {  // at most `capacity` commands in flight, so their acks always fit
    const std::lock_guard ack_lock(ack_mutex_);
    if (in_flight_ >= capacity_) {
      delete c.fault;
      throw std::invalid_argument("the command queue is full: the loop is not taking commands");
    }
    ++in_flight_;
    lines_[c.id] = std::move(line);
  }
  if (!commands_.try_push(c)) {  // cannot happen: in_flight_ bounds it
    delete c.fault;
    const std::lock_guard ack_lock(ack_mutex_);
    --in_flight_;
    lines_.erase(c.id);
    throw std::invalid_argument("the command queue is full");
  }
  return next_id_++;
}

namespace {

rt::ChannelId input_channel(const rt::ChannelTable& table, const std::string& name) {
  const std::optional<rt::ChannelId> id = table.find(name);
  if (!id) throw std::invalid_argument(fmt::format("no channel {}", name));
  if (table.spec(*id).direction != rt::Direction::input) {
    throw std::invalid_argument(
        fmt::format("{} is an output: only input channels can be written (a fault changes "
                    "an output)",
                    name));
  }
  return *id;
}

}  // namespace

void CommandQueue::check_write(const std::string& channel, double value) const {
  const rt::ChannelSpec& spec = table_.spec(input_channel(table_, channel));
  if (!std::isfinite(value)) {
    throw std::invalid_argument(fmt::format("{}: {} is not a finite number", channel, value));
  }
  if (value < spec.min || value > spec.max) {
    throw std::invalid_argument(fmt::format("{} = {} {} is outside its range [{}, {}] {}", channel,
                                            value, spec.unit, spec.min, spec.max, spec.unit));
  }
}

std::uint64_t CommandQueue::write(const std::string& channel, double value) {
  check_write(channel, value);
  const rt::ChannelId id = input_channel(table_, channel);
  return submit({.kind = Command::Kind::write, .channel = id, .value = value},
                fmt::format("write {} {}", channel, value));
}

void CommandQueue::check_release(const std::string& channel) const {
  (void)input_channel(table_, channel);
}

std::uint64_t CommandQueue::release(const std::string& channel) {
  const rt::ChannelId id = input_channel(table_, channel);
  return submit({.kind = Command::Kind::release, .channel = id},
                fmt::format("release {}", channel));
}

std::uint64_t CommandQueue::add_fault_json(std::string_view json) {
  return add_fault(config::parse_fault_json(json, table_, buses_));
}

std::uint64_t CommandQueue::add_fault_text(std::string_view text) {
  return add_fault(config::parse_fault_text(text, table_, buses_));
}

std::uint64_t CommandQueue::add_fault(config::FaultCommand fault) {
  std::unique_ptr<PreparedFault> prepared = faults_.prepare(std::move(fault.settings));
  return submit({.kind = Command::Kind::fault, .fault = prepared.release()}, "fault " + fault.text);
}

std::uint64_t CommandQueue::clear_fault(const std::string& name) {
  Command c{.kind = Command::Kind::clear};
  if (name.empty() || name.size() >= c.name.size()) {
    throw std::invalid_argument(fmt::format("\"{}\": a fault name of 1 to 63 bytes", name));
  }
  std::memcpy(c.name.data(), name.data(), name.size());
  return submit(c, "clear " + name);
}

std::uint64_t CommandQueue::marker(const std::string& text) {
  if (text.empty() || text.size() > 200 || text.find('\n') != std::string::npos) {
    throw std::invalid_argument("a marker is one line of 1 to 200 bytes");
  }
  return submit({.kind = Command::Kind::marker}, "marker " + text);
}

std::uint64_t CommandQueue::uds(std::string_view request) {
  if (tester_ == nullptr) {
    throw std::invalid_argument(
        "this rig has no UDS tester: give it a diagnostics block (docs/diagnostics.md)");
  }
  UdsRequestText parsed = parse_uds_request(request);
  Command c{.kind = Command::Kind::uds,
            .size = static_cast<std::uint16_t>(parsed.bytes.size()),
            .functional = parsed.functional};
  const std::string line = "uds " + uds_request_text(parsed.bytes, parsed.functional);
  const std::lock_guard lock(submit_mutex_);  // the id submit() gives next is this one's
  {
    const std::lock_guard ack_lock(ack_mutex_);
    std::vector<std::uint8_t>& kept = uds_bytes_[next_id_] = std::move(parsed.bytes);
    c.bytes = kept.data();
  }
  try {
    return submit_locked(c, line);
  } catch (...) {
    const std::lock_guard ack_lock(ack_mutex_);
    uds_bytes_.erase(next_id_);
    throw;
  }
}

std::vector<AppliedCommand> CommandQueue::take_applied() {
  std::vector<AppliedCommand> out;
  const std::lock_guard lock(ack_mutex_);
  Ack a;
  while (acks_.try_pop(a)) {
    delete a.garbage;
    --in_flight_;
    uds_bytes_.erase(a.id);  // applied: the tester has its copy
    const auto line = lines_.find(a.id);
    out.push_back({.id = a.id,
                   .tick = a.tick,
                   .ok = a.ok,
                   .line = line != lines_.end() ? std::move(line->second) : std::string()});
    if (line != lines_.end()) lines_.erase(line);
  }
  if (!log_file_.empty() && !out.empty()) {
    if (!log_) log_ = std::make_unique<io::record::LineLog>(log_file_);
    for (const AppliedCommand& applied : out) {
      if (applied.ok) log_->append(fmt::format("{} {}\n", applied.tick, applied.line));
    }
    log_->flush();  // rare and few: each durable as soon as it is taken
  }
  return out;
}

void CommandQueue::set_log(std::filesystem::path file) { log_file_ = std::move(file); }

std::string CommandQueue::log_error() const {
  const std::lock_guard lock(ack_mutex_);
  return log_ ? log_->error() : std::string();
}

}  // namespace hil::runtime
