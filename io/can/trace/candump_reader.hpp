#pragma once
// Streaming reader of a candump log: one line at a time from any std::istream (a file of any
// size), reporting each bad line with its line and column and carrying on. Blank lines are
// skipped. Lines longer than kMaxCandumpReadLength are bad lines (read to their end, never
// stored whole). Thread-safety: one reader per thread; it owns no shared state.

#include <cstddef>
#include <istream>
#include <string>

#include "io/can/trace/candump_log.hpp"

namespace hil::io::can {

inline constexpr std::size_t kMaxCandumpReadLength = 4096;

struct CandumpBadLine {
  std::size_t line = 0;    ///< 1-based
  std::size_t column = 0;  ///< 1-based
  std::string message;
};

class CandumpReader {
 public:
  enum class Status { frame, bad_line, end };

  /// Reads from `in` (which must outlive the reader); `name` prefixes messages ("can.log").
  CandumpReader(std::istream& in, std::string name);

  /// Advances to the next frame or bad line. After frame, line() is valid until the next
  /// call; after bad_line, bad_line() is.
  [[nodiscard]] Status next();

  [[nodiscard]] const CandumpLine& line() const noexcept { return line_; }
  [[nodiscard]] const CandumpBadLine& bad_line() const noexcept { return bad_; }
  /// "NAME:LINE:COLUMN: message" of the last bad line.
  [[nodiscard]] std::string describe_bad_line() const;

  [[nodiscard]] std::size_t line_number() const noexcept { return line_number_; }
  [[nodiscard]] std::size_t frames() const noexcept { return frames_; }
  [[nodiscard]] std::size_t bad_lines() const noexcept { return bad_lines_; }
  /// Frames whose line carried a direction suffix " R"/" T" (kept in line().direction).
  [[nodiscard]] std::size_t direction_suffixes() const noexcept { return direction_suffixes_; }

 private:
  /// Reads the next physical line into text_; false at the end of the stream. Sets
  /// too_long_ when the line exceeded kMaxCandumpReadLength (the rest is skipped).
  bool read_line();

  std::istream& in_;
  std::string name_;
  std::string text_;
  bool too_long_ = false;
  CandumpLine line_;
  CandumpBadLine bad_;
  std::size_t line_number_ = 0;
  std::size_t frames_ = 0;
  std::size_t bad_lines_ = 0;
  std::size_t direction_suffixes_ = 0;
};

}  // namespace hil::io::can
