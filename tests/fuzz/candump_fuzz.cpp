// libFuzzer target for the candump log format (io/can/candump_*.hpp): arbitrary bytes as a
// log, line by line through parse_candump_line() and the streaming CandumpReader, and as
// frame text through parse_frame_text(). Besides crashes and sanitizer reports it traps when a
// promise breaks: a parsed line that does not format, or whose formatted text does not parse
// back to the same frame, interface, direction and microsecond time; an error column beyond
// the line; or a reader that counts lines it did not see.
//
//   cmake --preset fuzz && cmake --build --preset fuzz --target candump_fuzz
//   cmake --build --preset fuzz --target run_candump_fuzz     # 60 s with the seed corpus

#include <array>
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>
#include <string_view>

#include "io/can/trace/candump_log.hpp"
#include "io/can/trace/candump_reader.hpp"

namespace {

namespace can = hil::io::can;

void require(bool promise) {
  if (!promise) __builtin_trap();
}

void check_line(std::string_view line) {
  const can::CandumpParseResult r = can::parse_candump_line(line);
  if (!r.ok) {
    require(r.error.column <= line.size() && !r.error.message.empty());
    return;
  }
  std::array<char, can::kMaxCandumpLineLength> buffer{};
  const std::size_t n = can::format_candump_line(r.line, buffer);
  require(n > 0);
  const can::CandumpParseResult back = can::parse_candump_line({buffer.data(), n});
  require(back.ok);
  require(back.line.frame == r.line.frame);
  require(back.line.interface == r.line.interface);
  require(back.line.direction == r.line.direction);
  require(back.line.time.seconds == r.line.time.seconds);
  require(back.line.time.nanoseconds == r.line.time.nanoseconds / 1000 * 1000);
}

void check_frame_text(std::string_view text) {
  const can::FrameParseResult r = can::parse_frame_text(text);
  if (!r.ok) {
    require(r.error.column <= text.size());
    return;
  }
  require(can::is_valid(r.frame));
  const std::string again = can::to_frame_text(r.frame);
  const can::FrameParseResult back = can::parse_frame_text(again);
  require(back.ok && back.frame == r.frame);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  std::size_t lines = 0;
  for (std::size_t begin = 0; begin <= input.size();) {
    const std::size_t end = std::min(input.find('\n', begin), input.size());
    check_line(input.substr(begin, end - begin));
    ++lines;
    begin = end + 1;
  }
  check_frame_text(input);

  std::istringstream stream{std::string(input)};
  can::CandumpReader reader(stream, "fuzz.log");
  for (auto s = reader.next(); s != can::CandumpReader::Status::end; s = reader.next()) {
    if (s == can::CandumpReader::Status::frame) {
      require(can::is_valid(reader.line().frame) && !reader.line().interface.empty());
    } else {
      require(reader.bad_line().line == reader.line_number() && reader.bad_line().column >= 1);
    }
  }
  require(reader.frames() + reader.bad_lines() <= lines);
  require(reader.line_number() <= lines);
  return 0;
}
