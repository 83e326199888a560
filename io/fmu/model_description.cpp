#include "io/fmu/model_description.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <charconv>
#include <pugixml.hpp>

namespace hil::io::fmu {
namespace {

struct Located {
  std::string_view name;
  std::string_view text;

  /// "name:LINE:COLUMN: message" for a byte offset into the text.
  [[nodiscard]] std::string at(std::ptrdiff_t offset, std::string_view message) const {
    std::uint32_t line = 1;
    std::size_t line_start = 0;
    const auto end = static_cast<std::size_t>(
        std::clamp<std::ptrdiff_t>(offset, 0, static_cast<std::ptrdiff_t>(text.size())));
    for (std::size_t i = 0; i < end; ++i) {
      if (text[i] == '\n') {
        ++line;
        line_start = i + 1;
      }
    }
    return fmt::format("{}:{}:{}: {}", name, line, end - line_start + 1, message);
  }
  /// An element's offset_debug() is its name's, after the '<': the location is the '<'.
  [[nodiscard]] static std::ptrdiff_t offset_of(const pugi::xml_node& node) {
    return node.offset_debug() - (node.type() == pugi::node_element ? 1 : 0);
  }
  [[noreturn]] void fail(const pugi::xml_node& node, std::string_view message) const {
    throw FmuError(at(offset_of(node), message));
  }
  [[nodiscard]] std::uint32_t line_of(const pugi::xml_node& node) const {
    const std::string where = at(offset_of(node), "");
    const std::size_t first = where.find(':', name.size()) + 1;
    return static_cast<std::uint32_t>(std::stoul(where.substr(first)));
  }
};

std::optional<double> number_attribute(const pugi::xml_node& node, const char* attribute,
                                       const Located& where) {
  const pugi::xml_attribute a = node.attribute(attribute);
  if (a.empty()) return std::nullopt;
  const std::string_view text = a.value();
  double value = 0.0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc{} || end != text.data() + text.size()) {
    where.fail(node, fmt::format("{}=\"{}\": expected a number", attribute, text));
  }
  return value;
}

bool bool_attribute(const pugi::xml_node& node, const char* attribute) {
  return std::string_view(node.attribute(attribute).value()) == "true";
}

template <typename E, std::size_t N>
E enum_attribute(const pugi::xml_node& node, const char* attribute,
                 const std::array<std::pair<std::string_view, E>, N>& names, E fallback,
                 const Located& where) {
  const pugi::xml_attribute a = node.attribute(attribute);
  if (a.empty()) return fallback;
  for (const auto& [name, value] : names) {
    if (name == a.value()) return value;
  }
  std::string expected;
  for (const auto& [name, value] : names)
    expected += fmt::format("{}\"{}\"", expected.empty() ? "" : ", ", name);
  where.fail(node, fmt::format("{}=\"{}\": expected one of {}", attribute, a.value(), expected));
}

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

VariableType fmi3_type(std::string_view element) {
  if (element == "Float64" || element == "Float32") return VariableType::real;
  if (element.starts_with("Int") || element.starts_with("UInt")) return VariableType::integer;
  if (element == "Boolean") return VariableType::boolean;
  if (element == "String") return VariableType::string;
  if (element == "Enumeration") return VariableType::enumeration;
  return VariableType::other;
}

VariableType fmi2_type(std::string_view element) {
  if (element == "Real") return VariableType::real;
  if (element == "Integer") return VariableType::integer;
  if (element == "Boolean") return VariableType::boolean;
  if (element == "String") return VariableType::string;
  if (element == "Enumeration") return VariableType::enumeration;
  return VariableType::other;
}

void read_variable_attributes(const pugi::xml_node& node, const pugi::xml_node& typed, Variable& v,
                              const Located& where) {
  v.name = node.attribute("name").value();
  if (v.name.empty()) where.fail(node, "a variable without a name");
  const pugi::xml_attribute vr = node.attribute("valueReference");
  if (vr.empty()) where.fail(node, fmt::format("variable \"{}\": no valueReference", v.name));
  const std::string_view vr_text = vr.value();
  const auto [end, ec] =
      std::from_chars(vr_text.data(), vr_text.data() + vr_text.size(), v.value_reference);
  if (ec != std::errc{} || end != vr_text.data() + vr_text.size()) {
    where.fail(node, fmt::format(R"(variable "{}": valueReference="{}" is no unsigned integer)",
                                 v.name, vr_text));
  }
  v.causality = enum_attribute(node, "causality", kCausalities, Causality::local, where);
  v.variability = enum_attribute(
      node, "variability", kVariabilities,
      v.type == VariableType::real ? Variability::continuous : Variability::discrete, where);
  v.description = node.attribute("description").value();
  if (const pugi::xml_attribute start = typed.attribute("start"); !start.empty()) {
    v.start = start.value();
  }
  v.unit = typed.attribute("unit").value();
  v.line = where.line_of(node);
}

}  // namespace

const Variable* ModelDescription::find(std::string_view name) const noexcept {
  const auto it =
      std::ranges::find_if(variables, [&](const Variable& v) { return v.name == name; });
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
  md.model_exchange = !root.child("ModelExchange").empty();
  if (const pugi::xml_node cs = root.child("CoSimulation"); !cs.empty()) {
    md.co_simulation = true;
    md.model_identifier = cs.attribute("modelIdentifier").value();
    if (md.model_identifier.empty()) where.fail(cs, "<CoSimulation> without a modelIdentifier");
    md.can_handle_variable_step = bool_attribute(cs, "canHandleVariableCommunicationStepSize");
    md.can_be_instantiated_only_once_per_process =
        bool_attribute(cs, "canBeInstantiatedOnlyOncePerProcess");
    md.needs_execution_tool = bool_attribute(cs, "needsExecutionTool");
  }
  if (const pugi::xml_node de = root.child("DefaultExperiment"); !de.empty()) {
    md.default_experiment = {.start_time = number_attribute(de, "startTime", where),
                             .stop_time = number_attribute(de, "stopTime", where),
                             .step_size = number_attribute(de, "stepSize", where),
                             .tolerance = number_attribute(de, "tolerance", where)};
  }
  const pugi::xml_node variables = root.child("ModelVariables");
  for (const pugi::xml_node& node : variables.children()) {
    if (node.type() != pugi::node_element) continue;
    Variable v;
    if (v3) {
      v.type_name = node.name();
      v.type = fmi3_type(v.type_name);
      read_variable_attributes(node, node, v, where);
    } else {
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
        where.fail(node, fmt::format("variable \"{}\" has no type element (<Real>, <Integer>, "
                                     "…)",
                                     node.attribute("name").value()));
      }
      v.type_name = typed.name();
      v.type = fmi2_type(v.type_name);
      read_variable_attributes(node, typed, v, where);
    }
    if (md.find(v.name) != nullptr) {
      where.fail(node, fmt::format("variable \"{}\" is declared twice", v.name));
    }
    md.variables.push_back(std::move(v));
  }
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

}  // namespace hil::io::fmu
