#include "runtime/worker_log.hpp"

#include <fmt/format.h>

#include <charconv>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace hil::runtime {

namespace {

bool parse_int(const std::string& text, std::int64_t& out) {
  const char* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, out);
  return ec == std::errc() && ptr == end;
}

}  // namespace

WorkerLogWriter::WorkerLogWriter(const WorkerLogFormat& format, std::vector<Source> sources,
                                 const std::filesystem::path& path)
    : sources_(std::move(sources)), log_(path, std::string(format.header) + '\n') {}

WorkerLogWriter::~WorkerLogWriter() { stop(); }

void WorkerLogWriter::service() {
  drain();
  log_.flush_if_due();
}

void WorkerLogWriter::stop() {
  drain();
  log_.close();
}

void WorkerLogWriter::drain() {
  for (const Source& s : sources_) {
    scratch_.clear();
    if (s.take(scratch_) == 0) continue;
    for (const WorkerEvent& e : scratch_) {
      log_.append(e.taken == WorkerEvent::kBehind
                      ? fmt::format("{} {} behind\n", e.tick, s.name)
                      : fmt::format("{} {} late {}\n", e.tick, s.name, e.taken));
    }
  }
}

std::map<std::string, std::vector<WorkerEvent>> read_worker_log(const std::filesystem::path& path,
                                                                const WorkerLogFormat& format) {
  std::ifstream in(path);
  if (!in) throw std::invalid_argument(fmt::format("{}: cannot read it", path.string()));
  std::map<std::string, std::vector<WorkerEvent>> events;
  std::string line;
  for (int number = 1; std::getline(in, line); ++number) {
    if (line.empty() || line.front() == '#') continue;
    std::istringstream fields(line);
    std::string tick_text;
    std::string name;
    std::string kind;
    std::string taken_text;
    std::string extra;
    fields >> tick_text >> name >> kind >> taken_text >> extra;
    WorkerEvent e;
    const bool late =
        kind == "late" && parse_int(taken_text, e.taken) && e.taken >= format.min_taken;
    const bool behind = kind == "behind" && taken_text.empty();
    if (!parse_int(tick_text, e.tick) || e.tick < 0 || name.empty() || !extra.empty() ||
        !(late || behind)) {
      throw std::invalid_argument(
          fmt::format("{}:{}: \"{}\": expected <tick> <{}> late <{}> or <tick> <{}> behind",
                      path.string(), number, line, format.source, format.taken, format.source));
    }
    if (behind) e.taken = WorkerEvent::kBehind;
    std::vector<WorkerEvent>& mine = events[name];
    if (!mine.empty() && mine.back().tick > e.tick) {
      throw std::invalid_argument(fmt::format("{}:{}: tick {} is before the previous event's {}",
                                              path.string(), number, e.tick, mine.back().tick));
    }
    mine.push_back(e);
  }
  return events;
}

}  // namespace hil::runtime
