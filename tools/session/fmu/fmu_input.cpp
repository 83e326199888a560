#include "tools/session/fmu/fmu_input.hpp"

#include <fmt/format.h>

#include <charconv>
#include <cmath>
#include <fstream>
#include <limits>

#include "config/text/suggest.hpp"

namespace hil::session {
namespace {

namespace fmu = io::fmu;

/// One CSV line's fields; a field in double quotes may hold commas ("" is a quote).
std::vector<std::string> split_csv(const std::string& line) {
  std::vector<std::string> out(1);
  bool quoted = false;
  for (const char c : line) {
    if (c == '"') {
      quoted = !quoted;
      out.back() += c;
    } else if (c == ',' && !quoted) {
      out.emplace_back();
    } else if (c != '\r') {
      out.back() += c;
    }
  }
  for (std::string& f : out) {
    while (!f.empty() && f.back() == ' ') f.pop_back();
    while (!f.empty() && f.front() == ' ') f.erase(0, 1);
  }
  return out;
}

std::string unquote(const std::string& s) {
  return s.size() >= 2 && s.front() == '"' && s.back() == '"' ? s.substr(1, s.size() - 2) : s;
}

std::vector<std::string> split_spaces(const std::string& s) {
  std::vector<std::string> out;
  std::size_t i = 0;
  while (i < s.size()) {
    const std::size_t end = std::min(s.find(' ', i), s.size());
    if (end > i) out.push_back(s.substr(i, end - i));
    i = end + 1;
  }
  return out;
}

}  // namespace

// fmusim's FMIIsClose (Reference-FMUs fmusim/FMIUtil.c): EPSILON 1e-5, absolute or relative
bool fmi_close(double a, double b) noexcept {
  constexpr double kEpsilon = 1e-5;
  if (!std::isfinite(a) || !std::isfinite(b)) return false;
  const double d = std::fabs(a - b);
  return d <= kEpsilon || d <= kEpsilon * std::fmax(std::fabs(a), std::fabs(b));
}

FmuInput::FmuInput(const std::filesystem::path& file, const fmu::ModelDescription& md)
    : file_(file) {
  const std::string where = file.string();
  std::ifstream in(file);
  if (!in) throw fmu::FmuError(fmt::format("{}: cannot open the input CSV", where));
  std::string line;
  if (!std::getline(in, line)) throw fmu::FmuError(fmt::format("{}: empty", where));
  const std::vector<std::string> header = split_csv(line);
  if (header.size() < 2) {
    throw fmu::FmuError(fmt::format("{}:1: expected time,<input>,… in the header", where));
  }
  std::vector<fmu::ValueSet::Entry> entries;
  std::size_t values = 0;
  for (std::size_t c = 1; c < header.size(); ++c) {
    const std::string name = unquote(header[c]);
    const fmu::Variable* v = md.find(name);
    if (v == nullptr) {
      std::vector<std::string> names;
      for (const fmu::Variable& x : md.variables) {
        if (x.causality == fmu::Causality::input) names.push_back(x.name);
      }
      const auto near = config::closest_name(name, names);
      throw fmu::FmuError(fmt::format("{}:1: column {}: no variable \"{}\" in {}{}", where, c + 1,
                                      name, md.model_name,
                                      near ? fmt::format("; did you mean \"{}\"?", *near) : ""));
    }
    if (v->causality != fmu::Causality::input) {
      throw fmu::FmuError(fmt::format("{}:1: column {}: \"{}\" has causality {}, not input", where,
                                      c + 1, v->name, fmu::to_string(v->causality)));
    }
    const bool continuous =
        v->type == fmu::VariableType::real && v->variability == fmu::Variability::continuous;
    columns_.push_back({.variable = v, .continuous = continuous, .first = values, .size = v->size});
    entries.push_back({.variable = v, .size = v->size});
    values += v->size;
  }
  values_ = fmu::ValueSet(md.version, entries);
  for (std::size_t number = 2; std::getline(in, line); ++number) {
    if (line.find_first_not_of(" \r") == std::string::npos) continue;
    const std::vector<std::string> fields = split_csv(line);
    if (fields.size() != header.size()) {
      throw fmu::FmuError(fmt::format("{}:{}: {} fields; the header has {}", where, number,
                                      fields.size(), header.size()));
    }
    double t = 0.0;
    const auto [end, ec] =
        std::from_chars(fields[0].data(), fields[0].data() + fields[0].size(), t);
    if (ec != std::errc{} || end != fields[0].data() + fields[0].size() || !std::isfinite(t)) {
      throw fmu::FmuError(
          fmt::format("{}:{}: column 1: \"{}\" is no finite time", where, number, fields[0]));
    }
    if (!times_.empty() && t < times_.back()) {
      throw fmu::FmuError(fmt::format("{}:{}: time {} is before the previous row's {}", where,
                                      number, fields[0], times_.back()));
    }
    times_.push_back(t);
    std::vector<std::string> cells;
    std::vector<double> numbers;
    for (std::size_t c = 0; c < columns_.size(); ++c) {
      const Column& col = columns_[c];
      const std::string& field = fields[c + 1];
      std::vector<std::string> parts = col.variable->dimensions.empty()
                                           ? std::vector<std::string>{field}
                                           : split_spaces(unquote(field));
      if (parts.size() != col.size) {
        throw fmu::FmuError(fmt::format("{}:{}: column {}: {} values; \"{}\" has {}", where, number,
                                        c + 2, parts.size(), col.variable->name, col.size));
      }
      for (std::size_t i = 0; i < parts.size(); ++i) {
        const std::size_t k = col.first + i;
        if (!values_.parse(k, parts[i])) {
          throw fmu::FmuError(fmt::format("{}:{}: column {}: \"{}\" is no {} value", where, number,
                                          c + 2, parts[i], col.variable->type_name));
        }
        cells.push_back(values_.text(k));
        numbers.push_back(values_.as_double(k));
      }
    }
    cells_.push_back(std::move(cells));
    numbers_.push_back(std::move(numbers));
  }
  if (times_.empty()) throw fmu::FmuError(fmt::format("{}: no rows after the header", where));
}

double FmuInput::next_event(double time) const noexcept {
  for (std::size_t i = 0; i + 1 < times_.size(); ++i) {
    const double t0 = times_[i];
    const double t1 = times_[i + 1];
    if (time > t1 || fmi_close(time, t1)) continue;
    if (t0 == t1) return t0;  // a repeated time: a discontinuity of any input
    for (const Column& c : columns_) {
      if (c.continuous) continue;
      for (std::size_t k = c.first; k < c.first + c.size; ++k) {
        if (cells_[i][k] != cells_[i + 1][k]) return t1;
      }
    }
  }
  return std::numeric_limits<double>::infinity();
}

std::size_t FmuInput::discrete_row(double time) const noexcept {
  std::size_t row = 0;
  while (row + 1 < times_.size() && (times_[row + 1] <= time || fmi_close(times_[row + 1], time))) {
    ++row;
  }
  return row;
}

int FmuInput::apply(fmu::Fmu& f, double time) {
  if (columns_.empty()) return 0;
  // continuous: the segment [row, row + 1] with t_row ≤ time < t_row+1 (after events at time)
  std::size_t row = 0;
  while (row + 1 < times_.size() && times_[row + 1] <= time) ++row;
  const std::size_t discrete = discrete_row(time);
  for (const Column& c : columns_) {
    for (std::size_t k = c.first; k < c.first + c.size; ++k) {
      if (!c.continuous) {
        (void)values_.parse(k, cells_[discrete][k]);
        continue;
      }
      double x = numbers_[row][k];
      if (row + 1 < times_.size() && time > times_[row]) {
        const double t0 = times_[row];
        const double t1 = times_[row + 1];
        x += (time - t0) * (numbers_[row + 1][k] - numbers_[row][k]) / (t1 - t0);
      }
      values_.set_double(k, x);
    }
  }
  return values_.set(f);
}

}  // namespace hil::session
