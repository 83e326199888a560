#include "tools/session/fmu/fmu_simulate.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <fstream>
#include <sstream>

#include "config/text/suggest.hpp"

namespace hil::session {
namespace {

namespace fmu = io::fmu;

constexpr double kDefaultSteps = 500.0;

std::optional<double> parse_number(std::string_view text) {
  double value = 0.0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc{} || end != text.data() + text.size()) return std::nullopt;
  return value;
}

const fmu::Variable& real_variable(const fmu::ModelDescription& md, std::string_view name,
                                   std::string_view what) {
  const fmu::Variable* v = md.find(name);
  if (v == nullptr) {
    std::vector<std::string> names;
    for (const fmu::Variable& x : md.variables) names.push_back(x.name);
    const auto near = config::closest_name(name, names);
    throw fmu::FmuError(fmt::format("{}: no variable \"{}\" in {}{}", what, name, md.model_name,
                                    near ? fmt::format("; did you mean \"{}\"?", *near) : ""));
  }
  if (v->type != fmu::VariableType::real) {
    throw fmu::FmuError(fmt::format("{}: \"{}\" is {} ({}); hilsim sets and reads reals", what,
                                    name, v->type_name, fmu::to_string(v->causality)));
  }
  return *v;
}

/// Inputs by time from a CSV: the first column is time, the others inputs by name.
struct InputTable {
  std::vector<std::uint32_t> refs;
  std::vector<double> times;
  std::vector<std::vector<double>> rows;

  [[nodiscard]] std::vector<double> at(double t) const {
    if (times.empty()) return {};
    if (t <= times.front()) return rows.front();
    if (t >= times.back()) return rows.back();
    const auto hi =
        static_cast<std::size_t>(std::upper_bound(times.begin(), times.end(), t) - times.begin());
    const std::size_t lo = hi - 1;
    const double w = (t - times[lo]) / (times[hi] - times[lo]);
    std::vector<double> out(refs.size());
    for (std::size_t i = 0; i < out.size(); ++i) {
      out[i] = rows[lo][i] + w * (rows[hi][i] - rows[lo][i]);
    }
    return out;
  }
};

std::vector<std::string> split(const std::string& line) {
  std::vector<std::string> out;
  std::stringstream s(line);
  for (std::string field; std::getline(s, field, ',');) {
    while (!field.empty() && (field.back() == '\r' || field.back() == ' ')) field.pop_back();
    while (!field.empty() && field.front() == ' ') field.erase(0, 1);
    out.push_back(field);
  }
  return out;
}

InputTable read_inputs(const std::filesystem::path& file, const fmu::ModelDescription& md) {
  std::ifstream in(file);
  if (!in) throw fmu::FmuError(fmt::format("{}: cannot open the input CSV", file.string()));
  InputTable table;
  std::string line;
  std::size_t number = 1;
  if (!std::getline(in, line)) throw fmu::FmuError(fmt::format("{}: empty", file.string()));
  const std::vector<std::string> header = split(line);
  if (header.size() < 2) {
    throw fmu::FmuError(fmt::format("{}:1: expected time,<input>,… in the header", file.string()));
  }
  for (std::size_t c = 1; c < header.size(); ++c) {
    const fmu::Variable& v =
        real_variable(md, header[c], fmt::format("{}:1: column {}", file.string(), c + 1));
    if (v.causality != fmu::Causality::input) {
      throw fmu::FmuError(fmt::format("{}:1: column {}: \"{}\" has causality {}, not input",
                                      file.string(), c + 1, v.name, fmu::to_string(v.causality)));
    }
    table.refs.push_back(v.value_reference);
  }
  while (std::getline(in, line)) {
    ++number;
    if (line.find_first_not_of(" \r") == std::string::npos) continue;
    const std::vector<std::string> fields = split(line);
    if (fields.size() != header.size()) {
      throw fmu::FmuError(fmt::format("{}:{}: {} fields; the header has {}", file.string(), number,
                                      fields.size(), header.size()));
    }
    std::vector<double> row;
    for (std::size_t c = 0; c < fields.size(); ++c) {
      const auto v = parse_number(fields[c]);
      if (!v || !std::isfinite(*v)) {
        throw fmu::FmuError(fmt::format("{}:{}: column {}: \"{}\" is no finite number",
                                        file.string(), number, c + 1, fields[c]));
      }
      if (c == 0) {
        if (!table.times.empty() && *v <= table.times.back()) {
          throw fmu::FmuError(
              fmt::format("{}:{}: time {} does not increase", file.string(), number, fields[c]));
        }
        table.times.push_back(*v);
      } else {
        row.push_back(*v);
      }
    }
    table.rows.push_back(std::move(row));
  }
  return table;
}

}  // namespace

FmuSimulation simulate_fmu(fmu::Fmu& f, const FmuSimulateSpec& o) {
  const fmu::ModelDescription& md = f.description();
  const fmu::DefaultExperiment& de = md.default_experiment;
  const double start = o.start_time.value_or(de.start_time.value_or(0.0));
  const double stop = o.stop_time.value_or(de.stop_time.value_or(start + 1.0));
  if (!(stop > start)) {
    throw fmu::FmuError(fmt::format("stop time {} is not after start time {}", stop, start));
  }
  const double step = o.step.value_or(de.step_size.value_or((stop - start) / kDefaultSteps));
  if (!(step > 0.0)) throw fmu::FmuError(fmt::format("step {} is not above 0", step));

  std::vector<std::pair<std::uint32_t, double>> sets;
  for (const auto& [name, text] : o.set) {
    const fmu::Variable& v = real_variable(md, name, "--set");
    const auto value = parse_number(text);
    if (!value) {
      throw fmu::FmuError(fmt::format("--set {}={}: \"{}\" is no number", name, text, text));
    }
    if (v.causality != fmu::Causality::parameter && v.causality != fmu::Causality::input) {
      throw fmu::FmuError(
          fmt::format("--set {}: \"{}\" has causality {}; only parameters and inputs are "
                      "set",
                      name, name, fmu::to_string(v.causality)));
    }
    sets.emplace_back(v.value_reference, *value);
  }
  const InputTable inputs = o.input_csv ? read_inputs(*o.input_csv, md) : InputTable{};
  std::vector<std::uint32_t> outputs;
  std::string csv = "time";
  for (const fmu::Variable& v : md.variables) {
    if (v.causality == fmu::Causality::output && v.type == fmu::VariableType::real) {
      outputs.push_back(v.value_reference);
      csv += "," + v.name;
    }
  }
  csv += "\n";

  FmuSimulation result;
  const auto check = [&](int status, double t, std::string_view call) {
    result.worst_status = std::max(result.worst_status, status);
    if (status > 1) {
      throw fmu::FmuError(fmt::format("{} at t = {} s failed with status {} ({})", call, t, status,
                                      status == 2   ? "discard"
                                      : status == 3 ? "error"
                                                    : "fatal"));
    }
  };
  f.instantiate(md.model_name, start, stop);
  for (const auto& [ref, value] : sets) {
    const std::uint32_t r = ref;
    const double x = value;
    check(f.set_real({&r, 1}, {&x, 1}), start, "setting a value");
  }
  if (!inputs.refs.empty()) check(f.set_real(inputs.refs, inputs.at(start)), start, "set inputs");
  f.exit_initialization();
  std::vector<double> values(outputs.size());
  const auto record = [&](double t) {
    check(f.get_real(outputs, values), t, "reading the outputs");
    csv += fmt::format("{}", t);
    for (const double v : values) csv += fmt::format(",{}", v);
    csv += "\n";
  };
  record(start);
  const auto n = static_cast<std::size_t>(std::llround((stop - start) / step));
  for (std::size_t i = 0; i < n; ++i) {
    const double t = start + static_cast<double>(i) * step;
    if (!inputs.refs.empty()) check(f.set_real(inputs.refs, inputs.at(t)), t, "set inputs");
    check(f.do_step(t, step), t, "doStep");
    ++result.steps;
    record(start + static_cast<double>(i + 1) * step);
  }
  f.terminate();
  result.csv = std::move(csv);
  return result;
}

std::string describe_fmu(const fmu::Fmu& f) {
  const fmu::ModelDescription& md = f.description();
  std::string out =
      fmt::format("{}: FMI {} {}, {}\n", md.model_name, md.fmi_version,
                  md.co_simulation && md.model_exchange ? "co-simulation and model exchange"
                  : md.co_simulation                    ? "co-simulation"
                                                        : "model exchange",
                  md.description.empty() ? "(no description)" : md.description);
  out += fmt::format("  token {}\n  generated by {}\n", md.token,
                     md.generation_tool.empty() ? "(unknown)" : md.generation_tool);
  out += fmt::format("  platforms: {}\n", f.platforms().empty()
                                              ? "none"
                                              : fmt::format("{}", fmt::join(f.platforms(), ", ")));
  out += fmt::format(
      "  co-simulation: model identifier {}, variable step {}, one instance per "
      "process {}, needs an execution tool {}\n",
      md.model_identifier, md.can_handle_variable_step ? "yes" : "no",
      md.can_be_instantiated_only_once_per_process ? "yes" : "no",
      md.needs_execution_tool ? "yes" : "no");
  const fmu::DefaultExperiment& de = md.default_experiment;
  const auto opt = [](const std::optional<double>& x) {
    return x ? fmt::format("{}", *x) : std::string("-");
  };
  out += fmt::format("  default experiment: start {} s, stop {} s, step {} s, tolerance {}\n",
                     opt(de.start_time), opt(de.stop_time), opt(de.step_size), opt(de.tolerance));
  out += fmt::format("  variables ({}):\n", md.variables.size());
  std::size_t width = 4;
  for (const fmu::Variable& v : md.variables) width = std::max(width, v.name.size());
  for (const fmu::Variable& v : md.variables) {
    out += fmt::format("    {:<{}}  vr {:<4} {:<8} {:<20} {:<10} start {:<8} {}{}\n", v.name, width,
                       v.value_reference, v.type_name, fmu::to_string(v.causality),
                       fmu::to_string(v.variability), v.start.value_or("-"),
                       v.unit.empty() ? "" : "[" + v.unit + "] ", v.description);
  }
  return out;
}

}  // namespace hil::session
