#include "io/can/trace/trace_loader.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <fstream>
#include <optional>
#include <stdexcept>
#include <system_error>

#include "io/can/trace/asc_reader.hpp"
#include "io/can/trace/blf_reader.hpp"
#include "io/can/trace/candump_reader.hpp"

namespace hil::io::can {
namespace {

constexpr std::int64_t kNanosPerSecond = 1'000'000'000;
constexpr std::int64_t kMaxSecondsApart = 9'000'000'000;  // ~285 years: fits int64 ns
constexpr std::size_t kSniffLines = 64;

bool iequals_prefix(std::string_view text, std::string_view prefix) {
  return text.size() >= prefix.size() &&
         std::ranges::equal(text.substr(0, prefix.size()), prefix, [](char a, char b) {
           return (a >= 'A' && a <= 'Z' ? a + 32 : a) == b;
         });
}

/// BLF by its signature, ASC by extension, else by the first line that is not blank: '('
/// starts a candump line.
TraceFormat detect(const std::filesystem::path& path, std::istream& in) {
  std::array<char, 4> magic{};
  in.read(magic.data(), magic.size());
  const bool blf = in.gcount() == 4 && std::string_view(magic.data(), 4) == "LOGG";
  in.clear();
  in.seekg(0);
  if (blf) return TraceFormat::blf;
  std::string ext = path.extension().string();
  if (iequals_prefix(ext, ".asc") && ext.size() == 4) return TraceFormat::asc;
  std::string line;
  TraceFormat format = TraceFormat::candump;
  for (std::size_t i = 0; i < kSniffLines && std::getline(in, line); ++i) {
    const std::size_t begin = line.find_first_not_of(" \t\r");
    if (begin == std::string::npos) continue;
    const std::string_view text = std::string_view(line).substr(begin);
    if (text.front() == '(') break;
    for (const std::string_view word : {"date", "base", "begin", "internal", "no ", "//"}) {
      if (iequals_prefix(text, word)) format = TraceFormat::asc;
    }
    if (text.front() >= '0' && text.front() <= '9') format = TraceFormat::asc;
    break;
  }
  in.clear();
  in.seekg(0);
  return format;
}

/// Collects frames and bad lines of either reader into a TraceLoad.
class Collector {
 public:
  Collector(TraceLoad& load, bool lenient) : load_(load), lenient_(lenient) {}

  void bad_line(const std::string& where) {
    if (!lenient_) throw std::runtime_error(where);
    ++load_.bad_lines;
    if (load_.first_bad_lines.size() < kMaxReportedBadLines) load_.first_bad_lines.push_back(where);
  }

  void frame(rt::Nanoseconds since_first, std::string_view interface, const CanFrame& frame,
             const std::string& name, std::size_t line) {
    if (frame.error()) ++load_.error_frames;
    try {
      load_.trace.add(since_first, interface, frame);
    } catch (const std::length_error& e) {
      throw std::runtime_error(fmt::format("{}:{}: {}", name, line, e.what()));
    }
  }

  /// A frame of a numbered channel (ASC, BLF) at `time_ns` since the measurement start:
  /// channel N is interface can<N-1>, times count from the first frame.
  void channel_frame(rt::Nanoseconds time_ns, std::uint32_t channel, const CanFrame& f,
                     const std::string& name, std::size_t position) {
    if (!origin_) origin_ = time_ns;
    if (channel != channel_ || interface_.empty()) {
      channel_ = channel;
      interface_ = asc_interface_name(channel);
    }
    frame(time_ns - *origin_, interface_, f, name, position);
  }

 private:
  TraceLoad& load_;
  bool lenient_;
  std::optional<rt::Nanoseconds> origin_;  // channel_frame(): the first frame's time
  std::uint32_t channel_ = 0;
  std::string interface_;
};

void load_candump(std::istream& in, const std::string& name, Collector& out) {
  CandumpReader reader(in, name);
  bool first = true;
  CandumpTimestamp origin;
  for (auto s = reader.next(); s != CandumpReader::Status::end; s = reader.next()) {
    if (s == CandumpReader::Status::bad_line) {
      out.bad_line(reader.describe_bad_line());
      continue;
    }
    const CandumpLine& line = reader.line();
    if (first) origin = line.time;
    first = false;
    const std::int64_t seconds = line.time.seconds - origin.seconds;
    if (seconds > kMaxSecondsApart || seconds < -kMaxSecondsApart) {
      out.bad_line(fmt::format("{}:{}:1: timestamp more than 285 years from the first frame's",
                               name, reader.line_number()));
      continue;
    }
    const rt::Nanoseconds since_first =
        seconds * kNanosPerSecond + (static_cast<std::int64_t>(line.time.nanoseconds) -
                                     static_cast<std::int64_t>(origin.nanoseconds));
    out.frame(since_first, line.interface, line.frame, name, reader.line_number());
  }
}

void load_blf(std::istream& in, const std::string& name, Collector& out, TraceLoad& load) {
  BlfReader reader(in, name);
  for (auto s = reader.next(); s != BlfReader::Status::end; s = reader.next()) {
    if (s == BlfReader::Status::bad_object) {
      out.bad_line(reader.describe_bad_object());
      continue;
    }
    const BlfFrame& f = reader.frame();
    out.channel_frame(f.time_ns, f.channel, f.frame, name, reader.frames());
  }
  load.events = reader.other_objects();
}

void load_asc(std::istream& in, const std::string& name, Collector& out, TraceLoad& load) {
  AscReader reader(in, name);
  for (auto s = reader.next(); s != AscReader::Status::end; s = reader.next()) {
    if (s == AscReader::Status::bad_line) {
      out.bad_line(reader.describe_bad_line());
      continue;
    }
    const AscFrame& f = reader.frame();
    out.channel_frame(f.time_ns, f.channel, f.frame, name, reader.line_number());
  }
  load.events = reader.events();
}

}  // namespace

std::string_view to_string(TraceFormat format) noexcept {
  switch (format) {
    case TraceFormat::automatic:
      return "auto";
    case TraceFormat::candump:
      return "candump";
    case TraceFormat::asc:
      return "asc";
    case TraceFormat::blf:
      return "blf";
  }
  return "unknown";
}

std::string asc_interface_name(std::uint32_t channel) {
  return fmt::format("can{}", channel == 0 ? 0 : channel - 1);
}

TraceLoad load_trace(std::istream& in, const std::string& name, TraceFormat format, bool lenient) {
  TraceLoad load;
  load.format = format == TraceFormat::automatic ? TraceFormat::candump : format;
  Collector out(load, lenient);
  if (load.format == TraceFormat::asc) {
    load_asc(in, name, out, load);
  } else if (load.format == TraceFormat::blf) {
    load_blf(in, name, out, load);
  } else {
    load_candump(in, name, out);
  }
  return load;
}

TraceFormat detect_trace_format(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return detect(path, in);
}

TraceLoad load_trace(const std::filesystem::path& path, const TraceLoadSpec& options) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    const int error = errno;  // what the failed open(2) left
    throw std::runtime_error(
        fmt::format("cannot open '{}': {}", path.string(), std::generic_category().message(error)));
  }
  const TraceFormat format =
      options.format == TraceFormat::automatic ? detect(path, in) : options.format;
  TraceLoad load = load_trace(in, path.string(), format, options.lenient);
  if (in.bad()) throw std::runtime_error(fmt::format("cannot read '{}'", path.string()));
  return load;
}

}  // namespace hil::io::can
