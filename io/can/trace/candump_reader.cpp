#include "io/can/trace/candump_reader.hpp"

#include <fmt/format.h>

#include <utility>

#include "io/can/trace/text_lines.hpp"

namespace hil::io::can {

CandumpReader::CandumpReader(std::istream& in, std::string name) : in_(in), name_(std::move(name)) {
  text_.reserve(kMaxCandumpReadLength);
}

bool CandumpReader::read_line() {
  std::streambuf* buffer = in_.rdbuf();
  return buffer != nullptr && read_bounded_line(*buffer, text_, kMaxCandumpReadLength, too_long_);
}

CandumpReader::Status CandumpReader::next() {
  while (read_line()) {
    ++line_number_;
    if (too_long_) {
      bad_ = {.line = line_number_,
              .column = kMaxCandumpReadLength + 1,
              .message = fmt::format("line longer than {} characters", kMaxCandumpReadLength)};
      ++bad_lines_;
      return Status::bad_line;
    }
    if (text_.find_first_not_of(" \t\r") == std::string::npos) continue;
    const CandumpParseResult parsed = parse_candump_line(text_);
    if (!parsed.ok) {
      bad_ = {.line = line_number_,
              .column = parsed.error.column + 1,
              .message = std::string(parsed.error.message)};
      ++bad_lines_;
      return Status::bad_line;
    }
    line_ = parsed.line;
    ++frames_;
    if (line_.direction != CandumpDirection::unspecified) ++direction_suffixes_;
    return Status::frame;
  }
  return Status::end;
}

std::string CandumpReader::describe_bad_line() const {
  return fmt::format("{}:{}:{}: {}", name_, bad_.line, bad_.column, bad_.message);
}

}  // namespace hil::io::can
