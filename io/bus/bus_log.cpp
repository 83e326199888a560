#include "io/bus/bus_log.hpp"

#include <fmt/format.h>

#include <charconv>
#include <cstdlib>

namespace hil::io::bus {

void append_bus_log_line(std::string& out, std::string_view region, const ConsumedSnapshot& s) {
  const SlotHeader& h = s.snapshot.head;
  fmt::format_to(std::back_inserter(out), "{} {} {:016x} {} {} {}", s.tick, region, h.session_id,
                 h.region_seq, h.tick, h.status);
  const std::size_t n = std::min<std::uint64_t>(h.value_count, kMaxRegionValues);
  for (std::size_t i = 0; i < n; ++i)
    fmt::format_to(std::back_inserter(out), " {}", s.snapshot.values[i]);
  out += '\n';
}

namespace {

std::vector<std::string_view> words(std::string_view line) {
  std::vector<std::string_view> out;
  std::size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && line[i] == ' ') ++i;
    const std::size_t start = i;
    while (i < line.size() && line[i] != ' ') ++i;
    if (i > start) out.push_back(line.substr(start, i - start));
  }
  return out;
}

template <class T>
bool number(std::string_view w, T& v, int base = 10) {
  const auto [end, ec] = std::from_chars(w.data(), w.data() + w.size(), v, base);
  return ec == std::errc() && end == w.data() + w.size();
}

bool real(std::string_view w, double& v) {
  const std::string s(w);  // strtod reads nan and inf as fmt prints them
  char* end = nullptr;
  v = std::strtod(s.c_str(), &end);
  return end == s.c_str() + s.size() && !s.empty();
}

}  // namespace

BusLog parse_bus_log(std::string_view text) {
  BusLog log;
  std::size_t line_no = 0;
  while (!text.empty()) {
    const std::size_t nl = text.find('\n');
    if (nl == std::string_view::npos) break;  // cut by a kill: not a complete line
    const std::string_view line = text.substr(0, nl);
    text.remove_prefix(nl + 1);
    ++line_no;
    if (line.empty() || line.front() == '#') continue;
    const std::vector<std::string_view> w = words(line);
    ConsumedSnapshot s;
    SlotHeader& h = s.snapshot.head;
    std::string why;
    if (w.size() < 7) {
      why = "expected: tick region session region_seq writer_tick status value...";
    } else if (!number(w[0], s.tick) || s.tick < 0) {
      why = fmt::format("tick \"{}\" is not a tick", w[0]);
    } else if (!number(w[2], h.session_id, 16) || !number(w[3], h.region_seq) ||
               !number(w[4], h.tick) || !number(w[5], h.status)) {
      why = "session, region_seq, writer tick or status is not a number";
    } else if (w.size() - 6 > kMaxRegionValues) {
      why = fmt::format("{} values; a region holds at most {}", w.size() - 6, kMaxRegionValues);
    } else {
      h.value_count = w.size() - 6;
      for (std::size_t i = 0; i < h.value_count && why.empty(); ++i) {
        if (!real(w[6 + i], s.snapshot.values[i])) why = fmt::format("value \"{}\"", w[6 + i]);
      }
    }
    std::vector<ConsumedSnapshot>& list = log.regions[std::string(w.size() > 1 ? w[1] : "")];
    if (why.empty() && !list.empty() && list.back().tick > s.tick) why = "tick goes backwards";
    if (!why.empty()) {
      log.bad_lines.push_back(fmt::format("bus.log:{}: {}", line_no, why));
      continue;
    }
    list.push_back(s);
    log.last_tick = std::max(log.last_tick, s.tick);
  }
  std::erase_if(log.regions, [](const auto& r) { return r.second.empty(); });
  return log;
}

RecordedInput::RecordedInput(const BusLog& log, const BusSchema& schema)
    : by_region_(schema.regions.size(), nullptr), next_(schema.regions.size(), 0) {
  for (const auto& [name, list] : log.regions) {
    const int id = schema.find_region(name);
    if (id < 0) {
      ++unknown_;
      continue;
    }
    by_region_[static_cast<std::size_t>(id)] = &list;
  }
}

BusInput::Read RecordedInput::read(std::uint32_t region, std::int64_t tick,
                                   RegionSnapshot& out) noexcept {
  const std::vector<ConsumedSnapshot>* list = by_region_[region];
  std::size_t& next = next_[region];
  if (list == nullptr || next >= list->size() || (*list)[next].tick != tick) return Read::unchanged;
  out = (*list)[next].snapshot;
  ++next;
  return Read::snapshot;
}

}  // namespace hil::io::bus
