#include "tools/cli/export_command.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <fnmatch.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "io/record/mapped_file.hpp"
#include "io/record/telemetry_reader.hpp"
#include "io/record/telemetry_schema.hpp"
#include "tools/session/export/blf_export.hpp"
#include "tools/session/export/csv.hpp"

namespace hil::cli {

namespace {

namespace fs = std::filesystem;
using io::record::TelemetryEvent;
using io::record::TelemetryLayout;
using io::record::TelemetrySample;
using session::csv_field;

struct ExportSpec {
  std::string run;
  std::string csv_dir;
  std::string blf;
  std::vector<std::string> patterns;
};

struct FileCloser {
  void operator()(std::FILE* f) const noexcept { std::fclose(f); }
};
using File = std::unique_ptr<std::FILE, FileCloser>;

File create(const fs::path& path) {
  File f(std::fopen(path.c_str(), "w"));
  if (!f) throw std::runtime_error(fmt::format("cannot create '{}'", path.string()));
  return f;
}

/// Writes one CSV per telemetry topic (time_s,tick,<channel>...) and events.csv.
class CsvExport final : public io::record::TelemetryVisitor {
 public:
  CsvExport(fs::path dir, const std::vector<std::string>& patterns)
      : dir_(std::move(dir)), patterns_(patterns), started_(std::chrono::steady_clock::now()) {}

  void on_topic(std::size_t topic, const TelemetryLayout& layout) override {
    topics_.resize(topic + 1);
    if (layout.kind() == TelemetryLayout::Kind::events) return;
    Topic& t = topics_[topic];
    std::string header = "time_s,tick";
    for (std::size_t c = 0; c < layout.columns().size(); ++c) {
      const std::string& name = layout.columns()[c].channel;
      all_channels_.push_back(name);
      if (!selected(name)) continue;
      t.columns.push_back(c);
      header += "," + csv_field(name);
    }
    if (t.columns.empty()) return;
    const std::string group = io::record::group_of_topic(layout.topic());
    t.file = create(dir_ / ((group.empty() ? "_top" : group) + ".csv"));
    std::fprintf(t.file.get(), "%s\n", header.c_str());
    ++files_;
    channels_ += t.columns.size();
  }

  void on_sample(std::size_t topic, std::uint64_t, const TelemetrySample& s) override {
    Topic& t = topics_[topic];
    if (!t.file) return;
    line_ = fmt::format("{},{}", s.sim_time_s, s.tick);
    for (const std::size_t c : t.columns)
      fmt::format_to(std::back_inserter(line_), ",{}", s.values[c]);
    line_ += '\n';
    std::fwrite(line_.data(), 1, line_.size(), t.file.get());
    ++rows_;
  }

  void on_event(std::uint64_t, const TelemetryEvent& e) override {
    if (!events_) {
      events_ = create(dir_ / "events.csv");
      std::fprintf(events_.get(), "time_s,tick,kind,text\n");
    }
    const std::string line =
        fmt::format("{},{},{},{}\n", e.sim_time_s, e.tick, csv_field(e.kind), csv_field(e.text));
    std::fwrite(line.data(), 1, line.size(), events_.get());
  }

  void on_progress(std::uint64_t offset, std::uint64_t total) override {
    const auto now = std::chrono::steady_clock::now();
    if (now - started_ < std::chrono::seconds(1) ||
        now - last_progress_ < std::chrono::seconds(1)) {
      return;
    }
    last_progress_ = now;
    std::fprintf(stderr, "export: %3.0f%% (%.1f of %.1f MiB)\n",
                 100.0 * static_cast<double>(offset) / static_cast<double>(total),
                 static_cast<double>(offset) / (1 << 20), static_cast<double>(total) / (1 << 20));
  }

  /// Closes the files, checking that every write reached them.
  void finish() {
    for (Topic& t : topics_) {
      if (t.file && std::fclose(t.file.release()) != 0) {
        throw std::runtime_error(fmt::format("cannot write the CSV files in '{}'", dir_.string()));
      }
    }
    if (events_ && std::fclose(events_.release()) != 0) {
      throw std::runtime_error(fmt::format("cannot write '{}'", (dir_ / "events.csv").string()));
    }
  }

  [[nodiscard]] std::size_t files() const noexcept { return files_; }
  [[nodiscard]] std::size_t channels() const noexcept { return channels_; }
  [[nodiscard]] std::uint64_t rows() const noexcept { return rows_; }
  [[nodiscard]] const std::vector<std::string>& all_channels() const { return all_channels_; }

 private:
  struct Topic {
    std::vector<std::size_t> columns;  // selected columns of the layout
    File file;
  };

  [[nodiscard]] bool selected(const std::string& channel) const {
    return patterns_.empty() || std::ranges::any_of(patterns_, [&](const std::string& p) {
             return fnmatch(p.c_str(), channel.c_str(), 0) == 0;
           });
  }

  fs::path dir_;
  const std::vector<std::string>& patterns_;
  std::vector<Topic> topics_;
  File events_;
  std::string line_;
  std::vector<std::string> all_channels_;
  std::size_t files_ = 0, channels_ = 0;
  std::uint64_t rows_ = 0;
  std::chrono::steady_clock::time_point started_, last_progress_;
};

fs::path telemetry_file(const std::string& run) {
  fs::path path(run);
  if (fs::is_directory(path)) {
    fs::path file = path / "telemetry.mcap";
    if (!fs::exists(file)) {
      throw std::runtime_error(fmt::format(
          "'{}' has no telemetry.mcap: is it a run directory (runs/<rig>-<time>/)?", run));
    }
    return file;
  }
  if (!fs::exists(path)) throw std::runtime_error(fmt::format("'{}' does not exist", run));
  return path;
}

/// RUN_DIR/can.log as BLF (or a candump log given instead of a run directory).
void run_blf_export(const ExportSpec& o) {
  fs::path log(o.run);
  if (fs::is_directory(log)) log /= "can.log";
  if (!fs::exists(log)) {
    throw std::runtime_error(
        fmt::format("'{}' does not exist: --blf converts a run's can.log", log.string()));
  }
  const session::BlfExport result = session::export_blf(log, o.blf);
  for (const std::string& bad : result.bad_lines) fmt::print(stderr, "{} (skipped)\n", bad);
  std::vector<std::string> channels;
  for (const auto& [name, channel] : result.channels) {
    channels.push_back(fmt::format("{} → channel {}", name, channel));
  }
  fmt::print(
      "exported {} frames of {} to {} (BLF; {}){}\n", result.frames, log.string(), o.blf,
      channels.empty() ? std::string("no frames") : fmt::format("{}", fmt::join(channels, ", ")),
      result.bad_lines.empty()
          ? ""
          : fmt::format("; {} malformed lines skipped", result.bad_lines.size()));
}

void run_export(const ExportSpec& o) {
  const fs::path input = telemetry_file(o.run);
  // a split recording (telemetry.1.mcap, …) is read as one, when its first file is given
  const std::vector<fs::path> parts = io::record::telemetry_parts(input);
  fs::create_directories(o.csv_dir);
  CsvExport csv(o.csv_dir, o.patterns);
  const io::record::TelemetryReadReport report = io::record::read_telemetry_files(parts, csv);
  csv.finish();
  if (!o.patterns.empty() && csv.channels() == 0 && !csv.all_channels().empty()) {
    std::string known;
    for (std::size_t i = 0; i < csv.all_channels().size() && i < 8; ++i) {
      known += (i == 0 ? "" : ", ") + csv.all_channels()[i];
    }
    throw std::runtime_error(fmt::format("no channel matches --channels '{}' (the file has {}{})",
                                         fmt::join(o.patterns, "' '"), known,
                                         csv.all_channels().size() > 8 ? ", …" : ""));
  }
  for (const std::string& skipped : report.skipped_topics) {
    std::fprintf(stderr, "warning: topic %s skipped\n", skipped.c_str());
  }
  if (report.undecodable > 0) {
    std::fprintf(stderr, "warning: %llu messages did not decode and were skipped\n",
                 static_cast<unsigned long long>(report.undecodable));
  }
  std::printf("exported %llu rows of %zu channels in %zu CSV files and %llu events to %s\n",
              static_cast<unsigned long long>(csv.rows()), csv.channels(), csv.files(),
              static_cast<unsigned long long>(report.events), o.csv_dir.c_str());
  using io::record::McapEnd;
  if (report.mcap.end == McapEnd::truncated) {
    std::fprintf(stderr,
                 "warning: %s is truncated (%s): the recorder did not close it (killed?); "
                 "exported up to the last complete record\n",
                 input.c_str(), report.mcap.problem.c_str());
  } else if (report.mcap.end == McapEnd::corrupt) {
    throw std::runtime_error(
        fmt::format("{} is damaged ({}); exported what comes before the damage", input.string(),
                    report.mcap.problem));
  }
}

}  // namespace

void add_export_command(CLI::App& app) {
  auto o = std::make_shared<ExportSpec>();
  CLI::App* cmd = app.add_subcommand(
      "export", "Export a run's telemetry (telemetry.mcap) as CSV, one file per channel group");
  cmd->footer(
      "Writes DIR/<group>.csv per channel group (e.g. vehicle.wheel.fl.csv) with the header\n"
      "time_s,tick,<channel>... (time_s = tick·dt, the simulation time), and DIR/events.csv\n"
      "(time_s,tick,kind,text). A truncated file (recorder killed) is exported up to its last\n"
      "complete record, with a warning. Numbers are printed with the fewest digits that read\n"
      "back to the same double.\n"
      "--blf writes the run's can.log (or a candump log given instead of RUN_DIR) as a Vector BLF\n"
      "trace (zlib containers; times in ns since the first frame; ' T' frames as transmitted;\n"
      "interface canN → channel N+1, other names → the free channels from 1).\n"
      "\n"
      "Examples:\n"
      "  hilsim export runs/ravon-20250101T120000Z --csv out/\n"
      "  hilsim export runs/ravon-20250101T120000Z --csv out/ --channels 'vehicle.wheel.*.speed'\n"
      "  hilsim export runs/ravon-20250101T120000Z --blf drive.blf   # can.log for CANoe\n"
      "\nFile layout and topics: docs/recording.md.\n");
  cmd->add_option("RUN_DIR", o->run, "Run directory (or a telemetry .mcap file)")->required();
  CLI::Option* csv =
      cmd->add_option("--csv", o->csv_dir, "Directory for the CSV files (created if missing)");
  CLI::Option* blf = cmd->add_option(
      "--blf", o->blf, "Also (or only) write the run's can.log as a Vector BLF trace to FILE");
  blf->type_name("FILE");
  cmd->add_option("--channels", o->patterns,
                  "Only channels matching this glob (e.g. 'vehicle.wheel.*.speed'); repeatable");
  cmd->callback([o, csv, blf] {
    if (csv->count() == 0 && blf->count() == 0) throw CLI::RequiredError("--csv DIR or --blf FILE");
    if (blf->count() != 0) run_blf_export(*o);
    if (csv->count() != 0) run_export(*o);
  });
}

}  // namespace hil::cli
