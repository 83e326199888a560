#include "runtime/commands/recorded_commands.hpp"

#include <fmt/format.h>

#include <charconv>
#include <cstring>
#include <stdexcept>

#include "config/fault_spec.hpp"

namespace hil::runtime {

namespace {

std::string_view next_word(std::string_view& rest) {
  const std::size_t start = rest.find_first_not_of(' ');
  if (start == std::string_view::npos) {
    rest = {};
    return {};
  }
  rest.remove_prefix(start);
  const std::size_t end = rest.find(' ');
  const std::string_view word = rest.substr(0, end);
  rest.remove_prefix(end == std::string_view::npos ? rest.size() : end + 1);
  return word;
}

}  // namespace

RecordedCommands::RecordedCommands(std::string_view log, rt::ChannelTable& table,
                                   const std::vector<io::can::CanBusSpec>& buses,
                                   FaultEngine& faults, const std::set<std::string>& without,
                                   DiagTester* tester)
    : applier_(table, faults, tester) {
  std::size_t number = 0;
  std::int64_t last_tick = 0;
  while (!log.empty()) {
    const std::size_t eol = log.find('\n');
    std::string_view line = log.substr(0, eol);
    log.remove_prefix(eol == std::string_view::npos ? log.size() : eol + 1);
    ++number;
    if (line.empty()) continue;
    const auto bad = [&](const std::string& why) {
      return std::invalid_argument(fmt::format("commands.log:{}: {}: {}", number, why, line));
    };
    std::string_view rest = line;
    const std::string_view tick_text = next_word(rest);
    std::int64_t tick = 0;
    if (std::from_chars(tick_text.data(), tick_text.data() + tick_text.size(), tick).ec !=
            std::errc() ||
        tick < last_tick) {
      throw bad("expected the tick (increasing) first");
    }
    last_tick = tick;
    const std::string_view kind = next_word(rest);
    Command c;
    if (kind == "write" || kind == "release") {
      const std::string channel(next_word(rest));
      const std::optional<rt::ChannelId> id = table.find(channel);
      if (!id) throw bad(fmt::format("no channel {}", channel));
      c = {.kind = kind == "write" ? Command::Kind::write : Command::Kind::release, .channel = *id};
      if (kind == "write") {
        const std::string value(next_word(rest));
        char* end = nullptr;
        c.value = std::strtod(value.c_str(), &end);
        if (value.empty() || *end != '\0') throw bad("expected a value after the channel");
      }
    } else if (kind == "fault") {
      std::string name;
      config::FaultCommand fault;
      try {
        name = config::fault_name_of_text(rest);
        if (without.contains(name)) continue;
        fault = config::parse_fault_text(rest, table, buses);
      } catch (const std::invalid_argument& e) {
        throw bad(e.what());
      }
      c = {.kind = Command::Kind::fault,
           .fault = faults.prepare(std::move(fault.settings)).release()};
    } else if (kind == "clear") {
      const std::string_view name = rest;
      if (without.contains(std::string(name))) continue;
      if (name.empty() || name.size() >= c.name.size()) throw bad("expected a fault's name");
      c = {.kind = Command::Kind::clear};
      std::memcpy(c.name.data(), name.data(), name.size());
    } else if (kind == "marker") {
      continue;  // a note: nothing to apply
    } else if (kind == "uds") {
      if (tester == nullptr) throw bad("a UDS request, but the rig has no diagnostics block");
      try {
        UdsRequestText request = parse_uds_request(rest);
        c = {.kind = Command::Kind::uds,
             .size = static_cast<std::uint16_t>(request.bytes.size()),
             .functional = request.functional};
        uds_bytes_.push_back(std::move(request.bytes));
      } catch (const std::invalid_argument& e) {
        throw bad(e.what());
      }
    } else {
      throw bad("expected write, release, fault, clear, marker or uds after the tick");
    }
    commands_.push_back({.tick = tick, .command = c});
  }
  garbage_.reserve(commands_.size());
  std::size_t next_bytes = 0;  // the vectors stay put now: point the commands at them
  for (Timed& t : commands_) {
    if (t.command.kind == Command::Kind::uds) t.command.bytes = uds_bytes_[next_bytes++].data();
  }
}

RecordedCommands::~RecordedCommands() {
  for (runtime::PreparedFault* p : garbage_) delete p;
  for (std::size_t i = next_; i < commands_.size(); ++i) delete commands_[i].command.fault;
}

void RecordedCommands::run(const rt::TickContext& c) noexcept {
  while (next_ < commands_.size() && commands_[next_].tick <= c.tick) {
    runtime::PreparedFault* garbage = nullptr;
    (void)applier_.apply(commands_[next_].command, garbage);
    if (garbage != nullptr) garbage_.push_back(garbage);  // within the capacity
    ++next_;
  }
  applier_.hold();
}

}  // namespace hil::runtime
