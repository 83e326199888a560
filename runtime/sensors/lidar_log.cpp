#include "runtime/sensors/lidar_log.hpp"

#include <fmt/format.h>

#include <charconv>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace hil::runtime {

namespace {

constexpr std::string_view kHeader = "# hilsim lidar.log 1: tick lidar late <job> | behind";

bool parse_int(const std::string& text, std::int64_t& out) {
  const char* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, out);
  return ec == std::errc() && ptr == end;
}

}  // namespace

LidarLogWriter::LidarLogWriter(const std::vector<std::unique_ptr<LidarStage>>& lidars,
                               const std::filesystem::path& path)
    : log_(path, std::string(kHeader) + '\n') {
  for (const auto& l : lidars) lidars_.push_back(l.get());
}

LidarLogWriter::~LidarLogWriter() { stop(); }

void LidarLogWriter::service() {
  drain();
  log_.flush_if_due();
}

void LidarLogWriter::stop() {
  drain();
  log_.close();
}

void LidarLogWriter::drain() {
  for (LidarStage* l : lidars_) {
    scratch_.clear();
    if (l->take_events(scratch_) == 0) continue;
    for (const LidarEvent& e : scratch_) {
      log_.append(e.job == LidarEvent::kBehind
                      ? fmt::format("{} {} behind\n", e.tick, l->spec().name)
                      : fmt::format("{} {} late {}\n", e.tick, l->spec().name, e.job));
    }
  }
}

std::map<std::string, std::vector<LidarEvent>> read_lidar_log(const std::filesystem::path& path) {
  std::ifstream in(path);
  if (!in) throw std::invalid_argument(fmt::format("{}: cannot read it", path.string()));
  std::map<std::string, std::vector<LidarEvent>> events;
  std::string line;
  for (int number = 1; std::getline(in, line); ++number) {
    if (line.empty() || line.front() == '#') continue;
    std::istringstream fields(line);
    std::string tick_text;
    std::string name;
    std::string kind;
    std::string job_text;
    std::string extra;
    fields >> tick_text >> name >> kind >> job_text >> extra;
    LidarEvent e;
    const bool late = kind == "late" && parse_int(job_text, e.job) && e.job > 0;
    const bool behind = kind == "behind" && job_text.empty();
    if (!parse_int(tick_text, e.tick) || e.tick < 0 || name.empty() || !extra.empty() ||
        !(late || behind)) {
      throw std::invalid_argument(
          fmt::format("{}:{}: \"{}\": expected <tick> <lidar> late <job> or <tick> <lidar> behind",
                      path.string(), number, line));
    }
    if (behind) e.job = LidarEvent::kBehind;
    std::vector<LidarEvent>& mine = events[name];
    if (!mine.empty() && mine.back().tick > e.tick) {
      throw std::invalid_argument(fmt::format("{}:{}: tick {} is before the previous event's {}",
                                              path.string(), number, e.tick, mine.back().tick));
    }
    mine.push_back(e);
  }
  return events;
}

}  // namespace hil::runtime
