#include "tools/session/run/run_directory.hpp"

#include <fcntl.h>
#include <fmt/chrono.h>
#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <stdexcept>
#include <system_error>

#include "config/rig/rig_document.hpp"
#include "io/can/trace/candump_frame.hpp"
#include "io/can/trace/candump_reader.hpp"
#include "io/can/trace/trace_loader.hpp"
#include "io/record/mapped_file.hpp"
#include "io/record/telemetry_reader.hpp"
#include "runtime/rig.hpp"

namespace hil::session {

std::filesystem::path make_run_directory(const std::optional<std::filesystem::path>& explicit_dir,
                                         const std::filesystem::path& runs_root,
                                         const std::string& rig,
                                         std::chrono::system_clock::time_point start) {
  std::filesystem::path dir;
  if (explicit_dir) {
    dir = *explicit_dir;
  } else {
    const std::string stamp =
        fmt::format("{:%Y%m%dT%H%M%SZ}", std::chrono::floor<std::chrono::seconds>(start));
    dir = runs_root / fmt::format("{}-{}", rig, stamp);
    for (int n = 2; std::filesystem::exists(dir); ++n) {
      dir = runs_root / fmt::format("{}-{}-{}", rig, stamp, n);
    }
  }
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) {
    throw std::runtime_error(
        fmt::format("cannot create the run directory {}: {}", dir.string(), ec.message()));
  }
  return dir;
}

std::string save_rig(const config::RigSpec& settings, const std::filesystem::path& dir,
                     const runtime::Rig& runtime) {
  std::vector<config::FmuThread> threads;
  for (const auto& fmu : runtime.fmus()) {
    threads.push_back(fmu->on_worker() ? config::FmuThread::worker : config::FmuThread::rt_thread);
  }
  return config::write_run_rig(settings, dir, threads);
}

std::string copy_scenario(const std::filesystem::path& scenario, const std::filesystem::path& dir) {
  std::ifstream in(scenario);
  std::stringstream text;
  text << in.rdbuf();
  if (!in) throw std::runtime_error(fmt::format("cannot read {}", scenario.string()));
  std::ofstream out(dir / "scenario.pbtxt");
  out << text.str();
  if (!out) {
    throw std::runtime_error(fmt::format("cannot write {}", (dir / "scenario.pbtxt").string()));
  }
  return text.str();
}

std::string config_hash(const std::string& text) {
  std::uint64_t h = 0xCBF29CE484222325ULL;
  for (const char c : text) {
    h ^= static_cast<unsigned char>(c);
    h *= 0x100000001B3ULL;
  }
  return fmt::format("{:016x}", h);
}

void write_file_atomically(const std::filesystem::path& file, const std::string& text) {
  const std::filesystem::path temporary = fmt::format("{}.{}.tmp", file.string(), ::getpid());
  const int fd = ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) {
    throw std::system_error(errno, std::generic_category(), "cannot write " + file.string());
  }
  const bool ok = ::write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size()) &&
                  ::fdatasync(fd) == 0;
  ::close(fd);
  if (!ok) throw std::runtime_error("cannot write " + file.string());
  std::filesystem::rename(temporary, file);
}

void write_json(const std::filesystem::path& dir, const std::string& name,
                const nlohmann::json& json) {
  write_file_atomically(dir / name, json.dump(2) + "\n");
}

std::string hilsim_version() { return HIL_VERSION; }

// git_revision(): generated at build time (tools/session/git_revision.cmake)

std::string version_line() {
  const std::string build = HIL_BUILD_TYPE;
  return fmt::format("hilsim {} (git {}, {} build)", hilsim_version(), git_revision(),
                     build.empty() ? "default" : build);
}

RunRecord read_run_record(const std::filesystem::path& dir) {
  const std::filesystem::path file = dir / "manifest.json";
  std::ifstream in(file);
  if (!in) throw std::runtime_error(fmt::format("{}: cannot read it", file.string()));
  const nlohmann::json j = nlohmann::json::parse(in, nullptr, false);
  if (j.is_discarded()) throw std::runtime_error(fmt::format("{}: not JSON", file.string()));
  for (const char* key : {"period_ns", "start_epoch_ns", "rig"}) {
    if (!j.contains(key)) {
      throw std::runtime_error(
          fmt::format("{}: no \"{}\"; expected a hilsim run manifest", file.string(), key));
    }
  }
  // A key of the wrong type (a hand-edited manifest) is named, not a JSON library's message
  const auto wrong = [&](std::string_view key, std::string_view type) {
    return std::runtime_error(fmt::format("{}: \"{}\" must be {}", file.string(), key, type));
  };
  const auto integer = [&](const char* key) {
    if (!j[key].is_number_integer()) throw wrong(key, "an integer");
    return j[key].get<std::int64_t>();
  };
  const auto text = [&](const nlohmann::json& object, const char* key, std::string fallback) {
    if (!object.contains(key)) return fallback;
    if (!object[key].is_string()) throw wrong(key, "a string");
    return object[key].get<std::string>();
  };
  const bool has_recording = j.contains("recording") && j["recording"].is_object();
  return {.period_ns = integer("period_ns"),
          .start_epoch_ns = integer("start_epoch_ns"),
          .rig = text(j, "rig", ""),
          .scenario = text(j, "scenario", ""),
          .completed = text(j, "ended", "running") != "running",
          .recording_complete =
              !has_recording || text(j["recording"], "ended", "complete") == "complete",
          .vehicle_math = text(j, "vehicle_math", "")};
}

CanRecording read_can_recording(const std::filesystem::path& file, const RunRecord& run) {
  CanRecording out;
  std::ifstream in(file);
  if (!in) return out;  // a run without CAN has no frames
  io::can::CandumpReader reader(in, file.filename().string());
  for (;;) {
    const io::can::CandumpReader::Status s = reader.next();
    if (s == io::can::CandumpReader::Status::end) break;
    if (s == io::can::CandumpReader::Status::bad_line) {
      out.bad_lines.push_back(reader.describe_bad_line());
      continue;
    }
    const io::can::CandumpLine& line = reader.line();
    const std::int64_t ns = line.time.seconds * 1'000'000'000 + line.time.nanoseconds;
    // The recorder wrote start + tick·dt, cut to microseconds
    const std::int64_t tick = std::llround(static_cast<double>(ns - run.start_epoch_ns) /
                                           static_cast<double>(run.period_ns));
    const bool sent = line.direction == io::can::CandumpDirection::transmitted;
    auto& lists = sent ? out.sent : out.received;
    lists[std::string(line.interface)].push_back({.tick = tick, .frame = line.frame});
    out.last_tick = std::max(out.last_tick, tick);
    ++out.frames;
  }
  // A last line without its newline was cut (the disk filled, the process was killed): a cut,
  // not a malformed line — what came before it is whole
  if (!out.bad_lines.empty() && std::filesystem::file_size(file) > 0) {
    std::ifstream last(file, std::ios::binary);
    last.seekg(-1, std::ios::end);
    if (static_cast<char>(last.get()) != '\n') {
      out.cut = fmt::format(
          "{} (the recording was cut there: replayed up to the last complete "
          "frame)",
          out.bad_lines.back());
      out.bad_lines.pop_back();
    }
  }
  return out;
}

CanRecording read_external_log(const std::filesystem::path& file, std::int64_t period_ns,
                               bool lenient) {
  const io::can::TraceLoad load = io::can::load_trace(file, {.lenient = lenient});
  CanRecording out;
  out.bad_lines = load.first_bad_lines;
  for (std::size_t i = 0; i < load.trace.size(); ++i) {
    const io::can::TraceRecord& r = load.trace.record(i);
    const std::int64_t tick = r.time_ns / period_ns;  // the tick its time falls into
    out.received[load.trace.interfaces()[r.interface]].push_back(
        {.tick = tick, .frame = load.trace.frame(i)});
    out.last_tick = std::max(out.last_tick, tick);
    ++out.frames;
  }
  return out;
}

std::int64_t last_sample_tick(const std::filesystem::path& telemetry) {
  struct Last final : io::record::TelemetryVisitor {
    void on_sample(std::size_t /*topic*/, std::uint64_t /*t*/,
                   const io::record::TelemetrySample& s) override {
      tick = std::max(tick, s.tick);
    }
    std::int64_t tick = -1;
  } last;
  (void)io::record::read_telemetry_files(io::record::telemetry_parts(telemetry), last);
  return last.tick;
}

}  // namespace hil::session
