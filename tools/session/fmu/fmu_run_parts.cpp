#include "tools/session/fmu/fmu_run_parts.hpp"

#include <fmt/format.h>

#include <cmath>

#include "config/text/suggest.hpp"

namespace hil::session {
namespace {

namespace fmu = io::fmu;

constexpr double kDefaultIntervals = 500.0;  // fmusim: (stop − start) / 500
constexpr double kMaxSteps = 1e8;

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

const fmu::Variable& settable(const fmu::ModelDescription& md, const std::string& name) {
  const fmu::Variable* v = md.find(name);
  if (v == nullptr) {
    std::vector<std::string> names;
    for (const fmu::Variable& x : md.variables) names.push_back(x.name);
    const auto near = config::closest_name(name, names);
    throw fmu::FmuError(fmt::format("--set: no variable \"{}\" in {}{}", name, md.model_name,
                                    near ? fmt::format("; did you mean \"{}\"?", *near) : ""));
  }
  const bool causal = v->causality == fmu::Causality::parameter ||
                      v->causality == fmu::Causality::input ||
                      v->causality == fmu::Causality::structural_parameter;
  if (!causal || v->variability == fmu::Variability::constant) {
    throw fmu::FmuError(fmt::format(
        "--set {}: \"{}\" has causality {}{}; only parameters, structural parameters and inputs "
        "are set",
        name, name, fmu::to_string(v->causality),
        v->variability == fmu::Variability::constant ? " (constant)" : ""));
  }
  if (v->type == fmu::VariableType::clock) {
    throw fmu::FmuError(fmt::format("--set {}: \"{}\" is a Clock", name, name));
  }
  return *v;
}

/// `text` into the values k0… of `set` (an array's space-separated).
void parse_value(fmu::ValueSet& set, std::size_t k0, const fmu::Variable& v, std::size_t size,
                 const std::string& text) {
  const std::vector<std::string> parts =
      v.dimensions.empty() ? std::vector<std::string>{text} : split_spaces(text);
  if (parts.size() != size) {
    throw fmu::FmuError(fmt::format("--set {}={}: {} values; \"{}\" has {}", v.name, text,
                                    parts.size(), v.name, size));
  }
  for (std::size_t i = 0; i < size; ++i) {
    if (!set.parse(k0 + i, parts[i])) {
      throw fmu::FmuError(
          fmt::format("--set {}={}: \"{}\" is no {} value", v.name, text, parts[i], v.type_name));
    }
  }
}

}  // namespace

FmuExperiment resolve_experiment(const fmu::ModelDescription& md, const FmuSimulateSpec& o) {
  const fmu::DefaultExperiment& de = md.default_experiment;
  FmuExperiment e;
  e.start = o.start_time.value_or(de.start_time.value_or(0.0));
  e.stop = o.stop_time.value_or(de.stop_time.value_or(1.0));
  if (!(e.stop > e.start)) {
    throw fmu::FmuError(fmt::format("stop time {} is not after start time {}", e.stop, e.start));
  }
  e.output_interval = o.output_interval.value_or(
      o.step.value_or(de.step_size.value_or((e.stop - e.start) / kDefaultIntervals)));
  e.step = o.step.value_or(e.output_interval);
  e.tolerance = de.tolerance;
  if (!(e.step > 0.0) || !(e.output_interval > 0.0)) {
    throw fmu::FmuError(
        fmt::format("step {} and output interval {} must be above 0", e.step, e.output_interval));
  }
  if ((e.stop - e.start) / std::min(e.step, e.output_interval) > kMaxSteps) {
    throw fmu::FmuError(fmt::format("{} s in steps of {} s: more than {:g} steps", e.stop - e.start,
                                    std::min(e.step, e.output_interval), kMaxSteps));
  }
  return e;
}

FmuStartValues start_values(const fmu::ModelDescription& md, const FmuSimulateSpec& o) {
  FmuStartValues out;
  std::vector<std::pair<const fmu::Variable*, const std::string*>> structural;
  std::vector<std::pair<const fmu::Variable*, const std::string*>> others;
  for (const auto& [name, text] : o.set) {
    const fmu::Variable& v = settable(md, name);
    (v.causality == fmu::Causality::structural_parameter ? structural : others)
        .emplace_back(&v, &text);
  }
  std::vector<fmu::ValueSet::Entry> entries;
  entries.reserve(structural.size());
  for (const auto& [v, text] : structural) entries.push_back({v, v->size});
  out.structural = fmu::ValueSet(md.version, entries);
  std::size_t k = 0;
  for (const auto& [v, text] : structural) {
    parse_value(out.structural, k, *v, v->size, *text);
    if (v->type == fmu::VariableType::integer && v->size == 1) {
      const double n = out.structural.as_double(k);
      if (n >= 0.0) out.structural_sizes[v->value_reference] = static_cast<std::uint64_t>(n);
    }
    k += v->size;
  }
  entries.clear();
  for (const auto& [v, text] : others) entries.push_back({v, md.size_of(*v, out.structural_sizes)});
  out.values = fmu::ValueSet(md.version, entries);
  k = 0;
  for (std::size_t i = 0; i < others.size(); ++i) {
    parse_value(out.values, k, *others[i].first, entries[i].size, *others[i].second);
    k += entries[i].size;
  }
  return out;
}

FmuRecorder::FmuRecorder(const fmu::ModelDescription& md,
                         const std::map<std::uint32_t, std::uint64_t>& structural) {
  std::vector<fmu::ValueSet::Entry> entries;
  csv_ = "\"time\"";
  for (const fmu::Variable& v : md.variables) {
    if (v.causality != fmu::Causality::output || v.type == fmu::VariableType::clock) continue;
    const std::size_t n = md.size_of(v, structural);
    entries.push_back({&v, n});
    if (v.dimensions.empty()) {
      csv_ += fmt::format(",\"{}\"", v.name);
    } else {
      for (std::size_t i = 0; i < n; ++i) csv_ += fmt::format(",\"{}[{}]\"", v.name, i);
    }
  }
  csv_ += "\n";
  outputs_ = fmu::ValueSet(md.version, entries);
}

int FmuRecorder::record(fmu::Fmu& f, double time) {
  const int status = outputs_.get(f);
  csv_ += fmt::format("{:.16g}", time);
  for (std::size_t k = 0; k < outputs_.size(); ++k) csv_ += "," + outputs_.text(k);
  csv_ += "\n";
  ++rows_;
  return status;
}

}  // namespace hil::session
