// The model structure of a model description (model_description.hpp): FMI 2.0 §2.2.8
// <ModelStructure> (<Outputs>, <Derivatives> of <Unknown index="…"/>, 1-based indices into
// <ModelVariables>; a Real's derivative="…" names its state the same way), FMI 3.0 §2.4.8
// (<Output>, <ContinuousStateDerivative>, <EventIndicator> by valueReference; a float's
// derivative="…" is its state's value reference), and the FMI 3 arrays' sizes (§2.4.7.2
// <Dimension>: a fixed start or a structural parameter's value).

#include <fmt/format.h>

#include <pugixml.hpp>

#include "io/fmu/model_description.hpp"
#include "io/fmu/xml_located.hpp"

namespace hil::io::fmu {
namespace {

constexpr std::size_t kMaxValues = std::size_t{1} << 24U;  // per array: 128 MiB of doubles

/// The index of the variable `node`'s `attribute` names: FMI 2 a 1-based index, FMI 3 a value
/// reference.
std::size_t resolve(const pugi::xml_node& node, const char* attribute, const ModelDescription& md,
                    const xml::Located& where) {
  const bool v3 = md.version == FmiVersion::fmi3;
  const auto n = xml::number_attribute<std::uint32_t>(node, attribute, where);
  if (!n) where.fail(node, fmt::format("<{}> without {}", node.name(), attribute));
  if (v3) {
    const Variable* v = md.by_reference(*n);
    if (v == nullptr) {
      where.fail(node,
                 fmt::format("{}=\"{}\": no variable has this value reference", attribute, *n));
    }
    return static_cast<std::size_t>(v - md.variables.data());
  }
  if (*n == 0 || *n > md.variables.size()) {
    where.fail(node, fmt::format("{}=\"{}\": expected 1..{} (the variables' indices)", attribute,
                                 *n, md.variables.size()));
  }
  return *n - 1;
}

}  // namespace

std::size_t ModelDescription::size_of(
    const Variable& v, const std::map<std::uint32_t, std::uint64_t>& structural) const {
  std::uint64_t n = 1;
  for (const Dimension& d : v.dimensions) {
    std::uint64_t k = 0;
    if (d.start) {
      k = *d.start;
    } else if (const auto it = structural.find(*d.value_reference); it != structural.end()) {
      k = it->second;
    } else {
      const Variable* p = by_reference(*d.value_reference);
      if (p == nullptr || p->type != VariableType::integer ||
          (p->causality != Causality::structural_parameter &&
           p->variability != Variability::constant)) {
        throw FmuError(
            fmt::format("variable \"{}\": dimension valueReference {} is no integer "
                        "structural parameter or constant",
                        v.name, *d.value_reference));
      }
      const auto start = p->start ? xml::parse<std::uint64_t>(*p->start) : std::nullopt;
      if (!start) {
        throw FmuError(fmt::format(R"(variable "{}": its dimension "{}" has no start value)",
                                   v.name, p->name));
      }
      k = *start;
    }
    if (k != 0 && n > kMaxValues / k) {
      throw FmuError(fmt::format("variable \"{}\": more than {} values", v.name, kMaxValues));
    }
    n *= k;
  }
  return static_cast<std::size_t>(n);
}

namespace xml {

void read_model_structure(const pugi::xml_node& root, const std::vector<pugi::xml_node>& nodes,
                          ModelDescription& md, const Located& where) {
  const bool v3 = md.version == FmiVersion::fmi3;
  for (std::size_t i = 0; i < md.variables.size(); ++i) {
    Variable& v = md.variables[i];
    pugi::xml_node typed = nodes[i];
    if (!v3)
      typed =
          typed.find_child([](const pugi::xml_node& c) { return c.type() == pugi::node_element; });
    if (!typed.attribute("derivative").empty()) {
      if (v.type != VariableType::real) {
        where.fail(nodes[i], fmt::format("variable \"{}\" is {}: only a real is a derivative",
                                         v.name, v.type_name));
      }
      v.derivative_of = resolve(typed, "derivative", md, where);
    }
    try {
      v.size = md.size_of(v, {});
    } catch (const FmuError& e) {
      where.fail(nodes[i], e.what());
    }
  }
  const pugi::xml_node ms = root.child("ModelStructure");
  if (v3) {
    for (const pugi::xml_node& node : ms.children()) {
      const std::string_view name = node.name();
      if (name == "Output") {
        md.outputs.push_back(resolve(node, "valueReference", md, where));
      } else if (name == "ContinuousStateDerivative") {
        md.derivatives.push_back(resolve(node, "valueReference", md, where));
      } else if (name == "EventIndicator") {
        md.event_indicators.push_back(resolve(node, "valueReference", md, where));
      }
    }
    md.number_of_event_indicators = 0;
    for (const std::size_t e : md.event_indicators) {
      md.number_of_event_indicators += static_cast<std::uint32_t>(md.variables[e].size);
    }
  } else {
    for (const pugi::xml_node& node : ms.child("Outputs").children("Unknown")) {
      md.outputs.push_back(resolve(node, "index", md, where));
    }
    for (const pugi::xml_node& node : ms.child("Derivatives").children("Unknown")) {
      md.derivatives.push_back(resolve(node, "index", md, where));
    }
  }
  for (const std::size_t d : md.derivatives) {
    const Variable& v = md.variables[d];
    if (v.type != VariableType::real) {
      where.fail(nodes[d], fmt::format("variable \"{}\" is {}: a state derivative is a real",
                                       v.name, v.type_name));
    }
  }
}

}  // namespace xml
}  // namespace hil::io::fmu
