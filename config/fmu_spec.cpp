#include "config/fmu_spec.hpp"

#include "config/fmu.pb.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <set>

#include "config/text/suggest.hpp"
#include "io/fmu/fmu.hpp"

namespace hil::config {
namespace {

namespace fmu = io::fmu;

constexpr std::uint32_t kMaxEveryTicks = 1'000'000;

std::string unit_or_dash(const std::string& unit) { return unit.empty() ? "-" : unit; }

/// A variable name as a channel name segment: lower case, other characters '_' ("SOC" → "soc",
/// "v.bat[1]" → "v_bat_1_").
std::string channel_segment(const std::string& name) {
  std::string out;
  for (const char c : name) {
    const bool alnum = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
    out += alnum ? c : (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : '_';
  }
  if (out.empty() || (out.front() >= '0' && out.front() <= '9')) out = "v" + out;
  return out;
}

/// The range of an integer type as doubles (64-bit types: to ±2^63, 2^64).
std::pair<double, double> integer_range(fmu::ValueType t) {
  switch (t) {
    case fmu::ValueType::int8:
      return {-128.0, 127.0};
    case fmu::ValueType::uint8:
      return {0.0, 255.0};
    case fmu::ValueType::int16:
      return {-32768.0, 32767.0};
    case fmu::ValueType::uint16:
      return {0.0, 65535.0};
    case fmu::ValueType::int32:
      return {-2147483648.0, 2147483647.0};
    case fmu::ValueType::uint32:
      return {0.0, 4294967295.0};
    case fmu::ValueType::uint64:
      return {0.0, 18446744073709551615.0};
    default:
      return {-9223372036854775808.0, 9223372036854775807.0};
  }
}

class FmuChecker {
 public:
  FmuChecker(const rt::ChannelTable& table, const SourceMap& sources, ConfigErrors& errors)
      : table_(table), sources_(sources), errors_(errors) {
    for (const rt::ChannelSpec& s : table.specs()) channels_.push_back(s.name);
  }

  void fail(const std::string& field, std::string message) const {
    errors_.push_back(sources_.error(field, std::move(message)));
  }

  const rt::ChannelSpec* channel(const std::string& field, const std::string& name) const {
    if (const auto id = table_.find(name)) return &table_.spec(*id);
    const auto near = closest_name(name, channels_);
    fail(field, fmt::format("\"{}\" is not a channel of the rig{}; expected one of its channels "
                            "(hilsim check --print)",
                            name, near ? fmt::format(" (did you mean {}?)", *near) : ""));
    return nullptr;
  }

  /// The variable `name` of `md` with the causality `wanted`, or nullptr after an error.
  const fmu::Variable* variable(const std::string& field, const fmu::ModelDescription& md,
                                const std::string& name, fmu::Causality wanted) const {
    const fmu::Variable* v = md.find(name);
    if (v == nullptr) {
      std::vector<std::string> names;
      for (const fmu::Variable& x : md.variables) {
        if (x.causality == wanted) names.push_back(x.name);
      }
      const auto near = closest_name(name, names);
      fail(field,
           fmt::format(
               "no variable \"{}\" in FMU {}{}; its {}s: {}", name, md.model_name,
               near ? fmt::format(" (did you mean {}?)", *near) : "", fmu::to_string(wanted),
               names.empty() ? std::string("none") : fmt::format("{}", fmt::join(names, ", "))));
      return nullptr;
    }
    if (v->causality != wanted) {
      fail(field, fmt::format("\"{}\" has causality {} in FMU {} (modelDescription.xml line {}); "
                              "expected {}",
                              name, fmu::to_string(v->causality), md.model_name, v->line,
                              fmu::to_string(wanted)));
      return nullptr;
    }
    const bool number =
        v->type == fmu::VariableType::real || v->type == fmu::VariableType::integer ||
        v->type == fmu::VariableType::boolean || v->type == fmu::VariableType::enumeration;
    if (!number) {
      fail(field, fmt::format("\"{}\" is {} in FMU {}; a rig maps numbers to channels (reals, "
                              "integers, booleans, enumerations); {} values only in hilsim fmu "
                              "simulate",
                              name, v->type_name, md.model_name, v->type_name));
      return nullptr;
    }
    if (!v->dimensions.empty()) {
      fail(field, fmt::format("\"{}\" is an array ({} values) in FMU {}; a rig maps scalars; "
                              "arrays only in hilsim fmu simulate",
                              name, v->size, md.model_name));
      return nullptr;
    }
    return v;
  }

  /// A parameter's value must be one of its type: an integer in range, a boolean 0 or 1.
  void value(const std::string& field, const fmu::Variable& v, double x) const {
    if (v.type == fmu::VariableType::boolean && x != 0.0 && x != 1.0) {
      fail(field, fmt::format("{}: \"{}\" is Boolean; expected 0 or 1", x, v.name));
      return;
    }
    if (v.type != fmu::VariableType::integer && v.type != fmu::VariableType::enumeration) return;
    const auto [lo, hi] = integer_range(v.value_type);
    if (x != std::trunc(x) || x < lo || x > hi) {
      fail(field, fmt::format("{}: \"{}\" is {}; expected an integer in [{}, {}]", x, v.name,
                              v.type_name, lo, hi));
    }
  }

  void units(const std::string& field, const fmu::Variable& v, const rt::ChannelSpec& c) const {
    if (v.unit.empty() || c.unit.empty() || c.unit == "-") return;  // one side says nothing
    if (v.unit != c.unit) {
      fail(field, fmt::format("units differ: \"{}\" is in {} but channel {} is in {}", v.name,
                              v.unit, c.name, c.unit));
    }
  }

 private:
  const rt::ChannelTable& table_;
  const SourceMap& sources_;
  ConfigErrors& errors_;
  std::vector<std::string> channels_;
};

}  // namespace

ConfigErrors check_fmus(const google::protobuf::RepeatedPtrField<Fmu>& fmus,
                        const rt::ChannelTable& table, std::string_view prefix,
                        const SourceMap& sources, std::vector<FmuSpec>& out) {
  ConfigErrors errors;
  const FmuChecker check(table, sources, errors);
  std::set<std::string> instances;
  for (int i = 0; i < fmus.size(); ++i) {
    const Fmu& f = fmus.Get(i);
    const std::string at = fmt::format("{}[{}]", prefix, i);
    FmuSpec s;
    s.instance = f.instance();
    if (s.instance.empty() || !rt::is_valid_channel_name(s.instance) ||
        s.instance.find('.') != std::string::npos) {
      check.fail(at + ".instance", fmt::format("\"{}\": expected a lower snake case name, e.g. "
                                               "instance: \"battery\"",
                                               s.instance));
      continue;
    }
    if (!instances.insert(s.instance).second) {
      check.fail(at + ".instance", fmt::format("instance \"{}\" is given twice", s.instance));
    }
    s.every_ticks = f.has_every_ticks() ? f.every_ticks() : 1;
    if (s.every_ticks == 0 || s.every_ticks > kMaxEveryTicks) {
      check.fail(at + ".every_ticks",
                 fmt::format("{}: expected 1..{}", f.every_ticks(), kMaxEveryTicks));
    }
    s.thread = f.thread() == Fmu::WORKER      ? FmuThread::worker
               : f.thread() == Fmu::RT_THREAD ? FmuThread::rt_thread
                                              : FmuThread::automatic;
    if (f.path().empty()) {
      check.fail(at, "no path; expected path: \"<file>.fmu\"");
      continue;
    }
    s.path = f.path();
    if (s.path.is_relative()) {
      s.path = std::filesystem::path(sources.locate(at + ".path").file).parent_path() / s.path;
    }
    s.path = s.path.lexically_normal();
    std::unique_ptr<fmu::Fmu> opened;
    try {
      opened = fmu::Fmu::load(s.path);
    } catch (const std::exception& e) {
      check.fail(at + ".path", e.what());
      continue;
    }
    const fmu::ModelDescription& md = opened->description();
    for (int k = 0; k < f.parameters_size(); ++k) {
      const FmuParameter& p = f.parameters(k);
      const std::string field = fmt::format("{}.parameters[{}]", at, k);
      if (const fmu::Variable* v =
              check.variable(field + ".name", md, p.name(), fmu::Causality::parameter)) {
        if (!std::isfinite(p.value())) check.fail(field + ".value", "expected a finite number");
        check.value(field + ".value", *v, p.value());
        s.parameters.push_back({p.name(), v->value_reference, p.value(), v->value_type});
      }
    }
    for (int k = 0; k < f.inputs_size(); ++k) {
      const FmuInput& in = f.inputs(k);
      const std::string field = fmt::format("{}.inputs[{}]", at, k);
      const rt::ChannelSpec* c = check.channel(field + ".channel", in.channel());
      const fmu::Variable* v =
          check.variable(field + ".variable", md, in.variable(), fmu::Causality::input);
      if (c != nullptr && v != nullptr) {
        check.units(field, *v, *c);
        s.inputs.push_back({in.channel(), in.variable(), v->value_reference, v->value_type});
      }
    }
    for (int k = 0; k < f.outputs_size(); ++k) {
      const FmuOutput& o = f.outputs(k);
      const std::string field = fmt::format("{}.outputs[{}]", at, k);
      const fmu::Variable* v =
          check.variable(field + ".variable", md, o.variable(), fmu::Causality::output);
      if (v == nullptr) continue;
      FmuSpec::Output output{
          .variable = v->name,
          .value_reference = v->value_reference,
          .unit = unit_or_dash(v->unit),
          .safe = 0.0,
          .channel = fmt::format("fmu.{}.{}", s.instance, channel_segment(v->name)),
          .drives = o.channel(),
          .type = v->value_type};
      if (v->start) {
        try {
          output.safe = *v->start == "true"    ? 1.0
                        : *v->start == "false" ? 0.0
                                               : std::stod(*v->start);
        } catch (const std::exception&) {
        }
      }
      if (!rt::is_valid_channel_name(output.channel)) {
        check.fail(field + ".variable",
                   fmt::format("\"{}\" makes no channel name ({}); channels are lower snake case",
                               v->name, output.channel));
        continue;
      }
      if (!o.channel().empty()) {
        const rt::ChannelSpec* c = check.channel(field + ".channel", o.channel());
        if (c == nullptr) continue;
        if (c->direction != rt::Direction::input) {
          check.fail(field + ".channel", fmt::format("channel {} is an output of the rig; an FMU "
                                                     "output drives an input channel",
                                                     c->name));
          continue;
        }
        check.units(field, *v, *c);
      }
      s.outputs.push_back(std::move(output));
    }
    out.push_back(std::move(s));
  }
  return errors;
}

}  // namespace hil::config
