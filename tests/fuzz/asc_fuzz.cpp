// libFuzzer target for the Vector ASC reader (io/can/trace/asc_reader.hpp) and the trace loader
// that plays ASC files (hilsim play): arbitrary bytes as an ASC file, line by line through
// AscLineParser, through the streaming AscReader and through load_trace(…, lenient). Besides
// crashes and sanitizer reports it traps when a promise breaks: a frame that is not valid
// (is_valid), a channel of 0, a negative time, an error column beyond its line or without a
// message, a reader that counts lines it did not see, or a load that disagrees with the
// reader on frames and bad lines.
//
//   cmake --preset fuzz && cmake --build --preset fuzz --target asc_fuzz
//   cmake --build --preset fuzz --target run_asc_fuzz     # 60 s with the seed corpus

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>
#include <string_view>

#include "io/can/trace/asc_reader.hpp"
#include "io/can/trace/trace_loader.hpp"

namespace {

namespace can = hil::io::can;

void require(bool promise) {
  if (!promise) __builtin_trap();
}

void check_frame(const can::AscFrame& f) {
  require(can::is_valid(f.frame));
  require(f.channel >= 1);
  require(f.time_ns >= 0);
}

/// Line by line through one parser; returns the frames and bad lines it saw.
std::pair<std::size_t, std::size_t> parse_lines(std::string_view input) {
  can::AscLineParser parser;
  std::size_t frames = 0;
  std::size_t bad = 0;
  for (std::size_t begin = 0; begin < input.size();) {
    const std::size_t end = std::min(input.find('\n', begin), input.size());
    const std::string_view line = input.substr(begin, end - begin);
    begin = end + 1;
    if (line.size() > can::kMaxAscReadLength) {
      ++bad;  // the reader rejects it before parsing
      continue;
    }
    const can::AscLineResult r = parser.parse(line);
    if (r.kind == can::AscLineResult::Kind::frame) {
      check_frame(r.frame);
      ++frames;
    } else if (r.kind == can::AscLineResult::Kind::bad) {
      require(r.error.column <= line.size() && !r.error.message.empty());
      ++bad;
    }
  }
  return {frames, bad};
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  const auto [frames, bad] = parse_lines(input);
  const std::size_t lines = static_cast<std::size_t>(std::ranges::count(input, '\n')) + 1;

  std::istringstream stream{std::string(input)};
  can::AscReader reader(stream, "fuzz.asc");
  for (auto s = reader.next(); s != can::AscReader::Status::end; s = reader.next()) {
    if (s == can::AscReader::Status::frame) {
      check_frame(reader.frame());
    } else {
      require(reader.bad_line().line == reader.line_number() && reader.bad_line().column >= 1 &&
              !reader.bad_line().message.empty());
    }
  }
  require(reader.frames() == frames && reader.bad_lines() == bad);
  require(reader.line_number() <= lines);

  std::istringstream again{std::string(input)};
  const can::TraceLoad load = can::load_trace(again, "fuzz.asc", can::TraceFormat::asc, true);
  require(load.trace.size() == frames && load.bad_lines == bad);
  require(load.events == reader.events());
  for (std::size_t i = 0; i < load.trace.size(); ++i) require(can::is_valid(load.trace.frame(i)));
  return 0;
}
