#pragma once
// Reading a text log one line at a time with a bound on what is kept (candump logs, ASC
// files): a line longer than the bound is read to its end but stored only up to the bound,
// so a file of any size or shape costs at most `max_length` bytes. Thread-safety: a
// function of its arguments; one caller per stream.

#include <cstddef>
#include <streambuf>
#include <string>

namespace hil::io::can {

/// Reads the next line of `in` into `line` (without its '\n'); returns false at the end of
/// the stream. `too_long` tells whether the line held more than `max_length` characters (only
/// the first `max_length` are kept). A last line without '\n' is still a line.
[[nodiscard]] bool read_bounded_line(std::streambuf& in, std::string& line, std::size_t max_length,
                                     bool& too_long);

}  // namespace hil::io::can
