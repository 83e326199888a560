// libFuzzer target for the SLCAN line parser (io/can/transport/slcan_codec.hpp): arbitrary bytes as
// what a serial adapter sends, through the bounded LineAssembler into parse_line(). Besides
// crashes and sanitizer reports it traps when a promise breaks: a line longer than
// kMaxLineBytes or holding a terminator, a frame line that yields an invalid frame, or one
// that does not survive format_frame() and parsing again.
//
//   cmake --preset fuzz && cmake --build --preset fuzz --target slcan_fuzz
//   cmake --build --preset fuzz --target run_slcan_fuzz   # 60 s with the seed corpus

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "io/can/transport/slcan_codec.hpp"

namespace {

using hil::io::can::CanFrame;
namespace slcan = hil::io::can::slcan;

void require(bool promise) {
  if (!promise) __builtin_trap();
}

void check_line(std::string_view line) {
  CanFrame frame;
  if (slcan::parse_line(line, frame) != slcan::LineKind::frame) return;
  require(hil::io::can::is_valid(frame));
  std::array<char, slcan::kMaxFormattedBytes> text{};
  const std::size_t n = slcan::format_frame(frame, text);
  require(n > 0 && n <= text.size() && text[n - 1] == '\r');
  CanFrame again;
  require(slcan::parse_line({text.data(), n - 1}, again) == slcan::LineKind::frame);
  require(again == frame);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  slcan::LineAssembler assembler;
  for (const char c : input) {
    if (assembler.push(c) != slcan::LineAssembler::Event::line) continue;
    const std::string_view line = assembler.line();
    require(line.size() <= slcan::kMaxLineBytes);
    require(line.find_first_of("\r\a\n") == std::string_view::npos);
    check_line(line);
  }
  check_line(input);  // the parser alone, with any bytes at all
  return 0;
}
