#include "runtime/fmu/fmu_log.hpp"

#include <fmt/format.h>

#include <charconv>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace hil::runtime {

namespace {

constexpr std::string_view kHeader = "# hilsim fmu.log 1: tick instance late <step taken> | behind";

bool parse_int(const std::string& text, std::int64_t& out) {
  const char* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, out);
  return ec == std::errc() && ptr == end;
}

}  // namespace

FmuLogWriter::FmuLogWriter(const std::vector<std::unique_ptr<FmuStage>>& fmus,
                           const std::filesystem::path& path)
    : log_(path, std::string(kHeader) + '\n') {
  for (const auto& f : fmus) {
    if (!f->on_worker()) continue;
    fmus_.push_back(f.get());
    names_.push_back(f->instance());
  }
}

FmuLogWriter::~FmuLogWriter() { stop(); }

void FmuLogWriter::service() {
  drain();
  log_.flush_if_due();
}

void FmuLogWriter::stop() {
  drain();
  log_.close();
}

void FmuLogWriter::drain() {
  for (std::size_t i = 0; i < fmus_.size(); ++i) {
    scratch_.clear();
    if (fmus_[i]->take_events(scratch_) == 0) continue;
    for (const FmuEvent& e : scratch_) {
      log_.append(e.step == FmuEvent::kBehind
                      ? fmt::format("{} {} behind\n", e.tick, names_[i])
                      : fmt::format("{} {} late {}\n", e.tick, names_[i], e.step));
    }
  }
}

std::map<std::string, std::vector<runtime::FmuEvent>> read_fmu_log(
    const std::filesystem::path& path) {
  std::ifstream in(path);
  if (!in) throw std::invalid_argument(fmt::format("{}: cannot read it", path.string()));
  std::map<std::string, std::vector<runtime::FmuEvent>> events;
  std::string line;
  for (int number = 1; std::getline(in, line); ++number) {
    if (line.empty() || line.front() == '#') continue;
    std::istringstream fields(line);
    std::string tick_text;
    std::string instance;
    std::string kind;
    std::string step_text;
    std::string extra;
    fields >> tick_text >> instance >> kind >> step_text >> extra;
    runtime::FmuEvent e;
    const bool late = kind == "late" && parse_int(step_text, e.step) && e.step >= 0;
    const bool behind = kind == "behind" && step_text.empty();
    if (!parse_int(tick_text, e.tick) || e.tick < 0 || instance.empty() || !extra.empty() ||
        !(late || behind)) {
      throw std::invalid_argument(fmt::format(
          "{}:{}: \"{}\": expected <tick> <instance> late <step> or <tick> <instance> behind",
          path.string(), number, line));
    }
    if (behind) e.step = runtime::FmuEvent::kBehind;
    std::vector<runtime::FmuEvent>& mine = events[instance];
    if (!mine.empty() && mine.back().tick > e.tick) {
      throw std::invalid_argument(fmt::format("{}:{}: tick {} is before the previous event's {}",
                                              path.string(), number, e.tick, mine.back().tick));
    }
    mine.push_back(e);
  }
  return events;
}

}  // namespace hil::runtime
