#include "config/terrain/esri_ascii.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <optional>
#include <string>
#include <system_error>

namespace hil::config {
namespace {

constexpr std::string_view kHeaderKeys =
    "ncols, nrows, xllcorner|xllcenter, yllcorner|yllcenter, cellsize[, NODATA_value]";
constexpr std::int32_t kMaxDimension = 1'000'000;

/// Splits text into lines, remembering 1-based line numbers; strips a trailing '\r'.
class LineReader {
 public:
  explicit LineReader(std::string_view text) : rest_(text) {}
  bool next(std::string_view& line) {
    if (done_) return false;
    const std::size_t end = rest_.find('\n');
    line = rest_.substr(0, end);
    if (end == std::string_view::npos) {
      done_ = true;
    } else {
      rest_.remove_prefix(end + 1);
    }
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    ++number_;
    return true;
  }
  [[nodiscard]] int number() const { return number_; }

 private:
  std::string_view rest_;
  int number_ = 0;
  bool done_ = false;
};

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v'; }

/// Next whitespace-separated token of `line`, or empty at the end.
std::string_view next_token(std::string_view& line) {
  std::size_t i = 0;
  while (i < line.size() && is_space(line[i])) ++i;
  std::size_t j = i;
  while (j < line.size() && !is_space(line[j])) ++j;
  const std::string_view token = line.substr(i, j - i);
  line.remove_prefix(j);
  return token;
}

std::optional<double> to_double(std::string_view token) {
  if (!token.empty() && token.front() == '+') token.remove_prefix(1);
  double value = 0.0;
  const auto [end, ec] = std::from_chars(token.data(), token.data() + token.size(), value);
  if (ec != std::errc{} || end != token.data() + token.size() || !std::isfinite(value)) {
    return std::nullopt;
  }
  return value;
}

std::string lower(std::string_view s) {
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(), [](char c) {
    return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
  });
  return out;
}

std::string printable(std::string_view token) {
  constexpr std::size_t kMaxShown = 32;
  std::string out;
  for (const char c : token.substr(0, kMaxShown)) {
    out += (c >= ' ' && c <= '~') ? c : '?';
  }
  if (token.size() > kMaxShown) out += "...";
  return out;
}

/// A header value and the line it was on (for messages about it).
struct Field {
  std::optional<double> value;
  int line = 0;
};

struct Header {
  Field ncols, nrows, xll, yll, cellsize, nodata;
  bool x_center = false;
  bool y_center = false;
};

class Parser {
 public:
  Parser(std::string_view text, std::string_view name, const ValueCheck& check)
      : lines_(text), text_size_(text.size()), name_(name), check_(check) {}

  AsciiGrid parse() {
    std::string_view line;
    bool have_data_line = false;
    while (lines_.next(line)) {
      std::string_view rest = line;
      const std::string_view key = next_token(rest);
      if (key.empty()) continue;
      if (to_double(key) || key.front() == '-' || key.front() == '.' ||
          (key.front() >= '0' && key.front() <= '9')) {
        have_data_line = true;
        break;
      }
      header_line(key, rest);
    }
    const AsciiGrid grid = make_geometry();
    return read_rows(grid, have_data_line ? std::optional(line) : std::nullopt);
  }

 private:
  [[noreturn]] void fail(int line, const std::string& what) const {
    throw DemError(std::string(name_) + ":" + std::to_string(line) + ": " + what);
  }

  void header_line(std::string_view key, std::string_view rest) {
    const std::string k = lower(key);
    Field* slot = nullptr;
    if (k == "ncols") slot = &h_.ncols;
    if (k == "nrows") slot = &h_.nrows;
    if (k == "xllcorner" || k == "xllcenter") slot = &h_.xll, h_.x_center = k == "xllcenter";
    if (k == "yllcorner" || k == "yllcenter") slot = &h_.yll, h_.y_center = k == "yllcenter";
    if (k == "cellsize") slot = &h_.cellsize;
    if (k == "nodata_value") slot = &h_.nodata;
    if (slot == nullptr) {
      const std::string hint =
          (k == "dx" || k == "dy") ? " (non-square cells dx/dy are not supported; resample)" : "";
      fail(lines_.number(), "unknown header key '" + printable(key) + "'" + hint +
                                "; expected one of " + std::string(kHeaderKeys));
    }
    if (slot->value.has_value()) {
      fail(lines_.number(), "header key '" + printable(key) + "' given twice; expected once");
    }
    const std::string_view token = next_token(rest);
    const std::optional<double> value = to_double(token);
    if (!value) {
      fail(lines_.number(), "header '" + printable(key) + "' has value '" + printable(token) +
                                "'; expected a finite number");
    }
    if (!next_token(rest).empty()) {
      fail(lines_.number(), "header '" + printable(key) +
                                "' has more than one value; expected "
                                "'<key> <value>'");
    }
    slot->value = value;
    slot->line = lines_.number();
  }

  std::int32_t dimension(const Field& f, std::string_view key) const {
    const double d = *f.value;
    if (d != std::floor(d) || d < 2 || d > kMaxDimension) {
      fail(f.line, std::string(key) + " is " + std::to_string(d) +
                       "; expected an integer from 2 to " + std::to_string(kMaxDimension));
    }
    return static_cast<std::int32_t>(d);
  }

  AsciiGrid make_geometry() const {
    const std::array<std::pair<const Field*, std::string_view>, 5> required{{
        {&h_.ncols, "ncols"},
        {&h_.nrows, "nrows"},
        {&h_.xll, "xllcorner|xllcenter"},
        {&h_.yll, "yllcorner|yllcenter"},
        {&h_.cellsize, "cellsize"},
    }};
    for (const auto& [slot, key] : required) {
      if (!slot->value.has_value()) {
        fail(lines_.number(), "header has no '" + std::string(key) + "'; expected " +
                                  std::string(kHeaderKeys) + " before the data rows");
      }
    }
    AsciiGrid grid;
    GridGeometry& g = grid.geometry;
    g.ncols = dimension(h_.ncols, "ncols");
    g.nrows = dimension(h_.nrows, "nrows");
    if (std::int64_t{g.ncols} * g.nrows > kMaxGridCells) {
      fail(std::max(h_.ncols.line, h_.nrows.line),
           "grid of " + std::to_string(g.ncols) + " x " + std::to_string(g.nrows) +
               " cells; expected at most " + std::to_string(kMaxGridCells) + " cells");
    }
    g.cellsize = *h_.cellsize.value;
    if (!(g.cellsize >= kMinCellsize && g.cellsize <= kMaxCellsize)) {
      fail(h_.cellsize.line, "cellsize is " + std::to_string(g.cellsize) + "; expected " +
                                 std::to_string(kMinCellsize) + " to " +
                                 std::to_string(kMaxCellsize) + " m");
    }
    // Corner registration: the first cell centre is half a cell in from the corner.
    g.x0 = *h_.xll.value + (h_.x_center ? 0.0 : 0.5 * g.cellsize);
    g.y0 = *h_.yll.value + (h_.y_center ? 0.0 : 0.5 * g.cellsize);
    if (!std::isfinite(g.x0 + g.cellsize * g.ncols) ||
        !std::isfinite(g.y0 + g.cellsize * g.nrows)) {
      fail(lines_.number(), "grid extent overflows; expected finite corner and cellsize");
    }
    return grid;
  }

  AsciiGrid read_rows(AsciiGrid grid, std::optional<std::string_view> first) {
    const GridGeometry& g = grid.geometry;
    const auto cells = static_cast<std::size_t>(g.ncols) * static_cast<std::size_t>(g.nrows);
    std::vector<double> north_first;
    // Each value takes at least two characters: never reserve more than the text can hold.
    north_first.reserve(std::min(cells, text_size_ / 2 + 1));
    std::int32_t row = 0;
    std::string_view line;
    bool have = first.has_value();
    if (have) line = *first;
    while (have) {
      std::string_view rest = line;
      if (!next_token(rest).empty()) {
        if (row == g.nrows) {
          fail(lines_.number(), "row " + std::to_string(row + 1) + " found; expected " +
                                    std::to_string(g.nrows) + " rows (nrows)");
        }
        read_row(line, ++row, g.ncols, north_first);
      }
      have = lines_.next(line);
    }
    if (row != g.nrows) {
      fail(lines_.number(), "file ends after " + std::to_string(row) + " rows; expected " +
                                std::to_string(g.nrows) + " (nrows)");
    }
    // File rows run north → south; store south first so that row r sits at y0 + r·cellsize.
    grid.values.resize(cells);
    const auto n = static_cast<std::size_t>(g.ncols);
    for (std::size_t r = 0; r < static_cast<std::size_t>(g.nrows); ++r) {
      std::copy_n(north_first.begin() + static_cast<std::ptrdiff_t>(r * n), n,
                  grid.values.begin() +
                      static_cast<std::ptrdiff_t>((static_cast<std::size_t>(g.nrows) - 1 - r) * n));
    }
    return grid;
  }

  void read_row(std::string_view line, std::int32_t row, std::int32_t ncols,
                std::vector<double>& out) const {
    std::int32_t count = 0;
    std::string_view token;
    while (!(token = next_token(line)).empty()) {
      ++count;
      if (count > ncols) continue;  // counted for the message below
      const std::optional<double> v = to_double(token);
      std::string where = "row " + std::to_string(row) + " value " + std::to_string(count);
      if (!v)
        fail(lines_.number(), where + " '" + printable(token) + "'; expected a finite number");
      if (h_.nodata.value && *v == *h_.nodata.value) {
        fail(lines_.number(), where +
                                  " is NODATA_value; expected a complete grid (fill holes "
                                  "first, e.g. gdal_fillnodata.py)");
      }
      if (check_) {
        const std::string problem = check_(*v);
        if (!problem.empty()) fail(lines_.number(), where.append(" ").append(problem));
      }
      out.push_back(*v);
    }
    if (count != ncols) {
      fail(lines_.number(), "row " + std::to_string(row) + " has " + std::to_string(count) +
                                " values; expected " + std::to_string(ncols) + " (ncols)");
    }
  }

  LineReader lines_;
  std::size_t text_size_;
  std::string_view name_;
  const ValueCheck& check_;
  Header h_;
};

}  // namespace

AsciiGrid parse_esri_ascii(std::string_view text, std::string_view name, const ValueCheck& check) {
  return Parser(text, name, check).parse();
}

}  // namespace hil::config
