#include "tools/cli/dbc/dbc_decode.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <CLI/CLI.hpp>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "io/can/dbc/dbc_codec.hpp"
#include "io/can/trace/candump_frame.hpp"
#include "io/can/trace/candump_reader.hpp"
#include "io/can/trace/trace_loader.hpp"
#include "tools/cli/dbc/dbc_values.hpp"

namespace hil::cli {

namespace can = io::can;
namespace dbc = io::can::dbc;

namespace {

std::string id_text(std::uint32_t id, bool extended) {
  return extended ? fmt::format("0x{:08X}", id) : fmt::format("0x{:03X}", id);
}

std::string hex_bytes(const can::CanFrame& frame) {
  std::string out;
  for (const std::uint8_t b : frame.payload()) out += fmt::format("{:02X}", b);
  return out;
}

/// True when the payload shows that the signal's multiplexor chain does not select it (false
/// when that cannot be known because a multiplexor is beyond the payload).
bool deselected(const dbc::CompiledMessage& m, const dbc::CompiledSignal& s,
                std::span<const std::uint8_t> payload) {
  for (const dbc::CompiledSignal* at = &s; at->multiplexor >= 0;) {
    const dbc::CompiledSignal& mux = m.signals[static_cast<std::size_t>(at->multiplexor)];
    if (payload.size() < mux.layout.bytes_needed) return false;
    const std::uint64_t value = dbc::read_raw(mux.layout, payload);
    bool selects = false;
    for (std::uint32_t r = at->ranges_begin; r < at->ranges_end; ++r) {
      selects = selects || (value >= m.mux_ranges[r].low && value <= m.mux_ranges[r].high);
    }
    if (!selects) return true;
    at = &mux;
  }
  return false;
}

/// One known message decoded from one frame.
struct DecodedFrame {
  const dbc::Message& message;
  const dbc::CompiledMessage& compiled;
  const can::CanFrame& frame;
};

/// The signals of a decoded frame as text lines (indented) or as JSON members.
void append_text(const DecodedFrame& d, std::string& out) {
  if (d.frame.remote()) {
    out += "  (remote request: no data)\n";
    return;
  }
  std::vector<std::string> missing;
  for (std::size_t i = 0; i < d.compiled.signals.size(); ++i) {
    const dbc::CompiledSignal& c = d.compiled.signals[i];
    if (d.frame.length < c.layout.bytes_needed) {
      if (!deselected(d.compiled, c, d.frame.payload()))
        missing.push_back(d.message.signals[i].name);
    } else if (dbc::is_selected(d.compiled, c, d.frame.payload())) {
      const ShownValue v = show_value(d.message, c, i, d.frame.payload());
      out += "  " + format_signal_line(d.message.signals[i], v) + "\n";
    }
  }
  if (!missing.empty()) {
    out += fmt::format("  (frame has {} of {} bytes: {} not decoded)\n", d.frame.length,
                       d.message.length, fmt::join(missing, ", "));
  }
}

nlohmann::json to_json(const DecodedFrame& d) {
  nlohmann::json j;
  j["message"] = d.message.name;
  j["id"] = d.frame.id;
  j["extended"] = d.frame.extended();
  j["fd"] = d.frame.fd();
  j["data"] = hex_bytes(d.frame);
  nlohmann::json signals = nlohmann::json::object();
  std::vector<std::string> missing;
  for (std::size_t i = 0; i < d.compiled.signals.size() && !d.frame.remote(); ++i) {
    const dbc::CompiledSignal& c = d.compiled.signals[i];
    const dbc::Signal& s = d.message.signals[i];
    if (d.frame.length < c.layout.bytes_needed) {
      if (!deselected(d.compiled, c, d.frame.payload())) missing.push_back(s.name);
    } else if (dbc::is_selected(d.compiled, c, d.frame.payload())) {
      signals[s.name] =
          signal_json(s, c, d.frame.payload(), show_value(d.message, c, i, d.frame.payload()));
    }
  }
  j["signals"] = std::move(signals);
  if (d.frame.remote()) j["remote"] = true;
  if (!missing.empty()) j["not_in_frame"] = missing;
  return j;
}

/// "1 frame", "2 frames".
std::string count_of(std::size_t n, std::string_view noun) {
  return fmt::format("{} {}{}", n, noun, n == 1 ? "" : "s");
}

std::string timestamp_text(const can::CandumpTimestamp& t) {
  return fmt::format("{:010}.{:06}", t.seconds, t.nanoseconds / 1000);
}

}  // namespace

void decode_frame_command(const dbc::Database& db, std::string_view frame_text, bool json) {
  const can::FrameParseResult parsed = can::parse_frame_text(frame_text);
  if (!parsed.ok) {
    throw CLI::ValidationError(
        "FRAME", fmt::format("'{}' at column {}: {}; expected ID#HEX, e.g. 123#DEADBEEF, or "
                             "ID##FHEX for CAN FD",
                             frame_text, parsed.error.column + 1, parsed.error.message));
  }
  const can::CanFrame& frame = parsed.frame;
  const dbc::CompiledDatabase compiled(db);
  const std::int32_t index = compiled.find(frame.id, frame.extended());
  if (index < 0 || frame.error()) {
    fmt::print(stderr, "error: no message with id {} ({}) in {}\n",
               id_text(frame.id, frame.extended()), frame.extended() ? "29-bit" : "11-bit",
               db.file_name);
    throw CLI::RuntimeError(1);
  }
  const auto i = static_cast<std::size_t>(index);
  const DecodedFrame d{db.messages[i], compiled.messages()[i], frame};
  if (json) {
    fmt::print("{}\n", to_json(d).dump(2));
    return;
  }
  std::string out = fmt::format("{} {}\n", d.message.name, id_text(frame.id, frame.extended()));
  append_text(d, out);
  std::fputs(out.c_str(), stdout);
}

namespace {

/// Decodes the frames of a log one by one and counts what it could not.
class LogDecoder {
 public:
  LogDecoder(const dbc::Database& db, bool json) : db_(db), compiled_(db), json_(json) {}

  void frame(std::string_view time, std::string_view interface, const can::CanFrame& frame) {
    ++frames_;
    if (frame.error()) {
      ++error_frames_;
      return;
    }
    const std::int32_t index = compiled_.find(frame.id, frame.extended());
    if (index < 0) {
      ++unknown_[{frame.extended(), frame.id}];
      return;
    }
    ++decoded_;
    const auto i = static_cast<std::size_t>(index);
    const DecodedFrame d{db_.messages[i], compiled_.messages()[i], frame};
    std::string out;
    if (json_) {
      nlohmann::json j = to_json(d);
      j["timestamp"] = time;
      j["interface"] = interface;
      out = j.dump() + "\n";
    } else {
      out = fmt::format("({}) {} {} {}\n", time, interface, can::to_frame_text(frame),
                        d.message.name);
      append_text(d, out);
    }
    std::fputs(out.c_str(), stdout);
  }

  /// "LOG: N frames, D decoded, U with ids not in DBC (…)[, E error frames]".
  [[nodiscard]] std::string summary(std::string_view log) const {
    std::size_t unknown_frames = 0;
    std::vector<std::string> unknown_ids;
    for (const auto& [key, count] : unknown_) {
      unknown_frames += count;
      unknown_ids.push_back(fmt::format("{} x{}", id_text(key.second, key.first), count));
    }
    std::string out =
        fmt::format("{}: {}, {} decoded, {} with ids not in {}{}", log, count_of(frames_, "frame"),
                    decoded_, unknown_frames, db_.file_name,
                    unknown_ids.empty() ? "" : fmt::format(" ({})", fmt::join(unknown_ids, ", ")));
    if (error_frames_ != 0) out += ", " + count_of(error_frames_, "error frame");
    return out;
  }

 private:
  const dbc::Database& db_;
  const dbc::CompiledDatabase compiled_;
  bool json_;
  std::map<std::pair<bool, std::uint32_t>, std::size_t> unknown_;
  std::size_t frames_ = 0;
  std::size_t decoded_ = 0;
  std::size_t error_frames_ = 0;
};

void print_summary(const std::string& summary, bool json) {
  std::fflush(stdout);
  fmt::print(json ? stderr : stdout, "{}\n", summary);
}

/// ASC and BLF: read whole (bad lines and objects skipped), times since the first frame.
void decode_trace(const dbc::Database& db, const std::filesystem::path& log,
                  can::TraceFormat format, bool json) {
  can::TraceLoad load;
  try {
    load = can::load_trace(log, {.lenient = true, .format = format});
  } catch (const std::exception& e) {
    fmt::print(stderr, "error: {}\n", e.what());
    throw CLI::RuntimeError(1);
  }
  for (const std::string& bad : load.first_bad_lines) {
    fmt::print(stderr, "{} (skipped)\n", bad);
  }
  LogDecoder decoder(db, json);
  for (std::size_t i = 0; i < load.trace.size(); ++i) {
    const can::TraceRecord& r = load.trace.record(i);
    decoder.frame(fmt::format("{:.6f}", static_cast<double>(r.time_ns) / 1e9),
                  load.trace.interfaces()[r.interface], load.trace.frame(i));
  }
  const bool blf = load.format == can::TraceFormat::blf;
  print_summary(fmt::format("{}, {}, {} skipped",
                            decoder.summary(fmt::format("{} ({}; times since the first frame)",
                                                        log.string(), can::to_string(load.format))),
                            count_of(load.bad_lines, blf ? "bad object" : "bad line"),
                            count_of(load.events, blf ? "other object" : "event")),
                json);
}

}  // namespace

void decode_log_command(const dbc::Database& db, const std::filesystem::path& log, bool json) {
  std::ifstream in(log, std::ios::binary);
  if (!in) {
    fmt::print(stderr, "error: {}: cannot open the log\n", log.string());
    throw CLI::RuntimeError(1);
  }
  if (const can::TraceFormat format = can::detect_trace_format(log);
      format != can::TraceFormat::candump) {
    decode_trace(db, log, format, json);
    return;
  }
  can::CandumpReader reader(in, log.string());
  LogDecoder decoder(db, json);
  for (auto status = reader.next(); status != can::CandumpReader::Status::end;
       status = reader.next()) {
    if (status == can::CandumpReader::Status::bad_line) {
      std::fflush(stdout);
      fmt::print(stderr, "{} (line skipped)\n", reader.describe_bad_line());
      continue;
    }
    const can::CandumpLine& line = reader.line();
    decoder.frame(timestamp_text(line.time), line.interface, line.frame);
  }
  std::string summary =
      decoder.summary(log.string()) + ", " + count_of(reader.bad_lines(), "bad line");
  if (reader.direction_suffixes() != 0) {
    summary +=
        ", " + count_of(reader.direction_suffixes(), "line") + " with an R/T direction suffix";
  }
  print_summary(summary, json);
}

}  // namespace hil::cli
