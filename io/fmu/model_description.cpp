#include "io/fmu/model_description.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <pugixml.hpp>

#include "io/fmu/xml_located.hpp"

namespace hil::io::fmu {
namespace {

using xml::bool_attribute;
using xml::enum_attribute;
using xml::Located;
using xml::number_attribute;

constexpr std::array<std::pair<std::string_view, Causality>, 7> kCausalities{{
    {"parameter", Causality::parameter},
    {"calculatedParameter", Causality::calculated_parameter},
    {"input", Causality::input},
    {"output", Causality::output},
    {"local", Causality::local},
    {"independent", Causality::independent},
    {"structuralParameter", Causality::structural_parameter},
}};
constexpr std::array<std::pair<std::string_view, Variability>, 5> kVariabilities{{
    {"constant", Variability::constant},
    {"fixed", Variability::fixed},
    {"tunable", Variability::tunable},
    {"discrete", Variability::discrete},
    {"continuous", Variability::continuous},
}};
constexpr std::array<std::pair<std::string_view, ClockInterval>, 7> kClockIntervals{{
    {"constant", ClockInterval::constant},
    {"fixed", ClockInterval::fixed},
    {"calculated", ClockInterval::calculated},
    {"tunable", ClockInterval::tunable},
    {"changing", ClockInterval::changing},
    {"countdown", ClockInterval::countdown},
    {"triggered", ClockInterval::triggered},
}};
// FMI 3.0 §2.4.7: the variable elements, their kind and C type
struct Fmi3Type {
  std::string_view element;
  VariableType type;
  ValueType value;
};
constexpr std::array<Fmi3Type, 15> kFmi3Types{{
    {"Float64", VariableType::real, ValueType::float64},
    {"Float32", VariableType::real, ValueType::float32},
    {"Int8", VariableType::integer, ValueType::int8},
    {"UInt8", VariableType::integer, ValueType::uint8},
    {"Int16", VariableType::integer, ValueType::int16},
    {"UInt16", VariableType::integer, ValueType::uint16},
    {"Int32", VariableType::integer, ValueType::int32},
    {"UInt32", VariableType::integer, ValueType::uint32},
    {"Int64", VariableType::integer, ValueType::int64},
    {"UInt64", VariableType::integer, ValueType::uint64},
    {"Boolean", VariableType::boolean, ValueType::boolean},
    {"String", VariableType::string, ValueType::string},
    {"Binary", VariableType::binary, ValueType::binary},
    {"Enumeration", VariableType::enumeration, ValueType::int64},
    {"Clock", VariableType::clock, ValueType::clock},
}};
// FMI 2.0 §2.2.7: the type elements of a ScalarVariable
constexpr std::array<Fmi3Type, 5> kFmi2Types{{
    {"Real", VariableType::real, ValueType::float64},
    {"Integer", VariableType::integer, ValueType::int32},
    {"Boolean", VariableType::boolean, ValueType::boolean},
    {"String", VariableType::string, ValueType::string},
    {"Enumeration", VariableType::enumeration, ValueType::int32},
}};

template <std::size_t N>
void set_type(std::string_view element, const std::array<Fmi3Type, N>& types, Variable& v) {
  v.type_name = element;
  v.type = VariableType::other;
  v.value_type = ValueType::none;
  for (const Fmi3Type& t : types) {
    if (t.element == element) {
      v.type = t.type;
      v.value_type = t.value;
    }
  }
}

void read_variable_attributes(const pugi::xml_node& node, const pugi::xml_node& typed, Variable& v,
                              const Located& where) {
  v.name = node.attribute("name").value();
  if (v.name.empty()) where.fail(node, "a variable without a name");
  const pugi::xml_attribute vr = node.attribute("valueReference");
  if (vr.empty()) where.fail(node, fmt::format("variable \"{}\": no valueReference", v.name));
  const auto ref = xml::parse<std::uint32_t>(vr.value());
  if (!ref) {
    where.fail(node, fmt::format(R"(variable "{}": valueReference="{}" is no unsigned integer)",
                                 v.name, vr.value()));
  }
  v.value_reference = *ref;
  v.causality = enum_attribute(node, "causality", kCausalities, Causality::local, where);
  v.variability = enum_attribute(
      node, "variability", kVariabilities,
      v.type == VariableType::real ? Variability::continuous : Variability::discrete, where);
  if (v.type != VariableType::real && v.variability == Variability::continuous) {
    where.fail(node, fmt::format("variable \"{}\" is {}: only real variables are continuous",
                                 v.name, v.type_name));
  }
  v.initial = node.attribute("initial").value();
  v.description = node.attribute("description").value();
  v.declared_type = typed.attribute("declaredType").value();
  if (const pugi::xml_attribute start = typed.attribute("start"); !start.empty()) {
    v.start = start.value();
  } else if (const pugi::xml_node s = typed.child("Start"); !s.empty()) {
    v.start = s.attribute("value").value();  // FMI 3 String and Binary: <Start value="…"/>
  }
  v.unit = typed.attribute("unit").value();
  v.line = where.line_of(node);
}

void read_clock(const pugi::xml_node& node, Variable& v, const Located& where) {
  v.interval_variability =
      enum_attribute(node, "intervalVariability", kClockIntervals, ClockInterval::none, where);
  if (v.interval_variability == ClockInterval::none) {
    where.fail(node, fmt::format("clock \"{}\" without an intervalVariability", v.name));
  }
  v.interval_decimal = number_attribute<double>(node, "intervalDecimal", where);
  v.shift_decimal = number_attribute<double>(node, "shiftDecimal", where);
  v.interval_counter = number_attribute<std::uint64_t>(node, "intervalCounter", where);
  v.resolution = number_attribute<std::uint64_t>(node, "resolution", where);
  v.priority = number_attribute<std::int32_t>(node, "priority", where);
  v.can_be_deactivated = bool_attribute(node, "canBeDeactivated");
}

void read_fmi3_variable(const pugi::xml_node& node, Variable& v, const Located& where) {
  set_type(node.name(), kFmi3Types, v);
  read_variable_attributes(node, node, v, where);
  for (const pugi::xml_node& d : node.children("Dimension")) {
    Dimension dim{.start = number_attribute<std::uint64_t>(d, "start", where),
                  .value_reference = number_attribute<std::uint32_t>(d, "valueReference", where)};
    if (dim.start.has_value() == dim.value_reference.has_value()) {
      where.fail(d, fmt::format("variable \"{}\": a <Dimension> has either start or "
                                "valueReference",
                                v.name));
    }
    v.dimensions.push_back(dim);
  }
  if (const pugi::xml_attribute clocks = node.attribute("clocks"); !clocks.empty()) {
    const std::string_view text = clocks.value();
    std::size_t i = 0;
    while (i < text.size()) {
      const std::size_t end = std::min(text.find(' ', i), text.size());
      if (end > i) {
        const auto vr = xml::parse<std::uint32_t>(text.substr(i, end - i));
        if (!vr) {
          where.fail(node, fmt::format("variable \"{}\": clocks=\"{}\": expected value "
                                       "references",
                                       v.name, text));
        }
        v.clocks.push_back(*vr);
      }
      i = end + 1;
    }
  }
  if (v.type == VariableType::clock) read_clock(node, v, where);
}

void read_fmi2_variable(const pugi::xml_node& node, Variable& v, const Located& where) {
  if (std::string_view(node.name()) != "ScalarVariable") {
    where.fail(node,
               fmt::format("<{}> in <ModelVariables>: expected <ScalarVariable>", node.name()));
  }
  pugi::xml_node typed;
  for (const pugi::xml_node& child : node.children()) {
    if (child.type() == pugi::node_element) {
      typed = child;
      break;
    }
  }
  if (typed.empty()) {
    where.fail(node, fmt::format("variable \"{}\" has no type element (<Real>, <Integer>, …)",
                                 node.attribute("name").value()));
  }
  set_type(typed.name(), kFmi2Types, v);
  read_variable_attributes(node, typed, v, where);
}

void read_interfaces(const pugi::xml_node& root, ModelDescription& md, const Located& where) {
  if (const pugi::xml_node me = root.child("ModelExchange"); !me.empty()) {
    md.model_exchange = true;
    ModelExchangeInterface& i = md.me;
    i.model_identifier = me.attribute("modelIdentifier").value();
    if (i.model_identifier.empty()) where.fail(me, "<ModelExchange> without a modelIdentifier");
    i.needs_execution_tool = bool_attribute(me, "needsExecutionTool");
    i.can_be_instantiated_only_once_per_process =
        bool_attribute(me, "canBeInstantiatedOnlyOncePerProcess");
    i.can_get_and_set_fmu_state =
        bool_attribute(me, "canGetAndSetFMUstate") || bool_attribute(me, "canGetAndSetFMUState");
    i.provides_directional_derivatives = bool_attribute(me, "providesDirectionalDerivative") ||
                                         bool_attribute(me, "providesDirectionalDerivatives");
    i.completed_integrator_step_not_needed = bool_attribute(me, "completedIntegratorStepNotNeeded");
    i.needs_completed_integrator_step = bool_attribute(me, "needsCompletedIntegratorStep");
  }
  if (const pugi::xml_node cs = root.child("CoSimulation"); !cs.empty()) {
    md.co_simulation = true;
    md.model_identifier = cs.attribute("modelIdentifier").value();
    if (md.model_identifier.empty()) where.fail(cs, "<CoSimulation> without a modelIdentifier");
    md.can_handle_variable_step = bool_attribute(cs, "canHandleVariableCommunicationStepSize");
    md.can_be_instantiated_only_once_per_process =
        bool_attribute(cs, "canBeInstantiatedOnlyOncePerProcess");
    md.needs_execution_tool = bool_attribute(cs, "needsExecutionTool");
    md.has_event_mode = bool_attribute(cs, "hasEventMode");
    md.provides_intermediate_update = bool_attribute(cs, "providesIntermediateUpdate");
    md.might_return_early_from_do_step = bool_attribute(cs, "mightReturnEarlyFromDoStep");
    md.can_return_early_after_intermediate_update =
        bool_attribute(cs, "canReturnEarlyAfterIntermediateUpdate");
    md.fixed_internal_step_size = number_attribute<double>(cs, "fixedInternalStepSize", where);
  }
}

}  // namespace

const Variable* ModelDescription::find(std::string_view name) const noexcept {
  const auto it =
      std::ranges::find_if(variables, [&](const Variable& v) { return v.name == name; });
  return it == variables.end() ? nullptr : &*it;
}

const Variable* ModelDescription::by_reference(std::uint32_t vr) const noexcept {
  const auto it =
      std::ranges::find_if(variables, [&](const Variable& v) { return v.value_reference == vr; });
  return it == variables.end() ? nullptr : &*it;
}

ModelDescription parse_model_description(std::string_view xml, std::string_view name) {
  const Located where{name, xml};
  pugi::xml_document doc;
  const pugi::xml_parse_result parsed = doc.load_buffer(xml.data(), xml.size());
  if (!parsed) {
    throw FmuError(
        where.at(parsed.offset, fmt::format("not well-formed XML: {}", parsed.description())));
  }
  const pugi::xml_node root = doc.child("fmiModelDescription");
  if (root.empty()) {
    throw FmuError(where.at(0, "no <fmiModelDescription> element: not an FMI model description"));
  }
  ModelDescription md;
  md.fmi_version = root.attribute("fmiVersion").value();
  if (md.fmi_version.starts_with("2.")) {
    md.version = FmiVersion::fmi2;
  } else if (md.fmi_version.starts_with("3.")) {
    md.version = FmiVersion::fmi3;
  } else if (md.fmi_version.starts_with("1.")) {
    where.fail(root, fmt::format("fmiVersion=\"{}\": FMI 1.0 is not supported; export the model "
                                 "as FMI 2.0 or 3.0",
                                 md.fmi_version));
  } else {
    where.fail(root, fmt::format(R"(fmiVersion="{}": expected "2.0" or "3.0")", md.fmi_version));
  }
  const bool v3 = md.version == FmiVersion::fmi3;
  md.model_name = root.attribute("modelName").value();
  md.token = root.attribute(v3 ? "instantiationToken" : "guid").value();
  md.description = root.attribute("description").value();
  md.generation_tool = root.attribute("generationTool").value();
  if (!v3) {
    md.number_of_event_indicators =
        number_attribute<std::uint32_t>(root, "numberOfEventIndicators", where).value_or(0);
  }
  read_interfaces(root, md, where);
  if (const pugi::xml_node de = root.child("DefaultExperiment"); !de.empty()) {
    md.default_experiment = {.start_time = number_attribute<double>(de, "startTime", where),
                             .stop_time = number_attribute<double>(de, "stopTime", where),
                             .step_size = number_attribute<double>(de, "stepSize", where),
                             .tolerance = number_attribute<double>(de, "tolerance", where)};
  }
  std::vector<pugi::xml_node> nodes;
  for (const pugi::xml_node& node : root.child("ModelVariables").children()) {
    if (node.type() != pugi::node_element) continue;
    Variable v;
    if (v3) {
      read_fmi3_variable(node, v, where);
    } else {
      read_fmi2_variable(node, v, where);
    }
    if (md.find(v.name) != nullptr) {
      where.fail(node, fmt::format("variable \"{}\" is declared twice", v.name));
    }
    if (v3 && md.by_reference(v.value_reference) != nullptr) {
      where.fail(node, fmt::format("variable \"{}\": valueReference {} is {}'s too", v.name,
                                   v.value_reference, md.by_reference(v.value_reference)->name));
    }
    md.variables.push_back(std::move(v));
    nodes.push_back(node);
  }
  xml::read_model_structure(root, nodes, md, where);
  return md;
}

std::string_view to_string(Causality c) noexcept {
  for (const auto& [name, value] : kCausalities) {
    if (value == c) return name;
  }
  return "local";
}

std::string_view to_string(Variability v) noexcept {
  for (const auto& [name, value] : kVariabilities) {
    if (value == v) return name;
  }
  return "continuous";
}

std::string_view to_string(ClockInterval c) noexcept {
  for (const auto& [name, value] : kClockIntervals) {
    if (value == c) return name;
  }
  return "none";
}

std::string_view to_string(ValueType t) noexcept {
  for (const Fmi3Type& x : kFmi3Types) {
    if (x.value == t && x.type != VariableType::enumeration) return x.element;
  }
  return "none";
}

std::size_t value_bytes(ValueType t, FmiVersion version) noexcept {
  switch (t) {
    case ValueType::float64:
    case ValueType::int64:
    case ValueType::uint64:
    case ValueType::string:
    case ValueType::binary:
      return 8;
    case ValueType::float32:
    case ValueType::int32:
    case ValueType::uint32:
      return 4;
    case ValueType::int16:
    case ValueType::uint16:
      return 2;
    case ValueType::int8:
    case ValueType::uint8:
    case ValueType::clock:
      return 1;
    case ValueType::boolean:
      return version == FmiVersion::fmi2 ? sizeof(int) : sizeof(bool);
    case ValueType::none:
      return 0;
  }
  return 0;
}

}  // namespace hil::io::fmu
