#include "io/can/trace/text_lines.hpp"

namespace hil::io::can {

bool read_bounded_line(std::streambuf& in, std::string& line, std::size_t max_length,
                       bool& too_long) {
  line.clear();
  too_long = false;
  bool any = false;
  for (int c = in.sbumpc(); c != std::char_traits<char>::eof(); c = in.sbumpc()) {
    any = true;
    if (c == '\n') return true;
    if (line.size() < max_length) {
      line.push_back(static_cast<char>(c));
    } else {
      too_long = true;
    }
  }
  return any;
}

}  // namespace hil::io::can
