#include "io/can/candump_reader.hpp"

#include <fmt/format.h>

#include <utility>

namespace hil::io::can {

CandumpReader::CandumpReader(std::istream& in, std::string name) : in_(in), name_(std::move(name)) {
  text_.reserve(kMaxCandumpReadLength);
}

bool CandumpReader::read_line() {
  text_.clear();
  too_long_ = false;
  std::streambuf* buffer = in_.rdbuf();
  if (buffer == nullptr) return false;
  bool any = false;
  for (int c = buffer->sbumpc(); c != std::char_traits<char>::eof(); c = buffer->sbumpc()) {
    any = true;
    if (c == '\n') return true;
    if (text_.size() < kMaxCandumpReadLength) {
      text_.push_back(static_cast<char>(c));
    } else {
      too_long_ = true;
    }
  }
  return any;
}

CandumpReader::Status CandumpReader::next() {
  while (read_line()) {
    ++line_number_;
    if (too_long_) {
      bad_ = {.line = line_number_,
              .column = kMaxCandumpReadLength + 1,
              .message = fmt::format("line longer than {} characters", kMaxCandumpReadLength)};
      ++bad_lines_;
      return Status::kBadLine;
    }
    if (text_.find_first_not_of(" \t\r") == std::string::npos) continue;
    const CandumpParseResult parsed = parse_candump_line(text_);
    if (!parsed.ok) {
      bad_ = {.line = line_number_,
              .column = parsed.error.column + 1,
              .message = std::string(parsed.error.message)};
      ++bad_lines_;
      return Status::kBadLine;
    }
    line_ = parsed.line;
    ++frames_;
    if (line_.direction != CandumpDirection::kUnspecified) ++direction_suffixes_;
    return Status::kFrame;
  }
  return Status::kEnd;
}

std::string CandumpReader::describe_bad_line() const {
  return fmt::format("{}:{}:{}: {}", name_, bad_.line, bad_.column, bad_.message);
}

}  // namespace hil::io::can
