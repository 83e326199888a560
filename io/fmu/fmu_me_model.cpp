#include "io/fmu/fmu_me_model.hpp"

#include <fmt/format.h>

#include <pugixml.hpp>

namespace hil::io::fmu {
namespace {

std::optional<double> interval_of(const Variable& c) {
  if (c.interval_decimal) return c.interval_decimal;
  if (c.interval_counter && c.resolution && *c.resolution > 0) {
    return static_cast<double>(*c.interval_counter) / static_cast<double>(*c.resolution);
  }
  return std::nullopt;
}

/// Why hilsim cannot tick clock `c`, or "" when it can.
std::string unsupported(const Variable& c, bool as_model_exchange) {
  if (!as_model_exchange) return "clocks in co-simulation (event mode) are not supported";
  if (c.causality != Causality::input) {
    return fmt::format("causality=\"{}\" is not supported", to_string(c.causality));
  }
  if (c.interval_variability != ClockInterval::constant) {
    return fmt::format("intervalVariability=\"{}\" is not supported",
                       to_string(c.interval_variability));
  }
  const auto interval = interval_of(c);
  if (!interval || !(*interval > 0.0)) {
    return "no interval above 0 (intervalDecimal, or intervalCounter and resolution)";
  }
  if (c.shift_decimal && *c.shift_decimal < 0.0) return "a negative shiftDecimal";
  return {};
}

}  // namespace

MeModel me_model(const ModelDescription& md) {
  MeModel me{.model_identifier = md.me.model_identifier,
             .event_indicators = md.number_of_event_indicators};
  for (const std::size_t d : md.derivatives) me.states += md.variables[d].size;
  for (const Variable& v : md.variables) {
    if (v.type != VariableType::clock) continue;
    me.clocks.push_back({.name = v.name,
                         .value_reference = v.value_reference,
                         .interval = interval_of(v).value_or(0.0),
                         .shift = v.shift_decimal.value_or(0.0)});
  }
  return me;
}

void check_interfaces(const ModelDescription& md, std::string_view xml, std::string_view file) {
  if (!md.co_simulation && !md.model_exchange) {
    pugi::xml_document doc;
    if (doc.load_buffer(xml.data(), xml.size()) &&
        !doc.child("fmiModelDescription").child("ScheduledExecution").empty()) {
      throw FmuError(fmt::format(
          "{}: only a <ScheduledExecution> interface: scheduled execution is not supported; "
          "hilsim runs co-simulation and model-exchange FMUs",
          file));
    }
  }
}

void check_clocks(const ModelDescription& md, bool as_model_exchange, std::string_view file) {
  for (const Variable& c : md.variables) {
    if (c.type != VariableType::clock) continue;
    if (const std::string why = unsupported(c, as_model_exchange); !why.empty()) {
      throw FmuError(fmt::format(
          "{}/modelDescription.xml:{}: clock \"{}\": {}; hilsim ticks only periodic input "
          "clocks of constant interval (causality=\"input\", intervalVariability=\"constant\") "
          "of a model-exchange FMU",
          file, c.line, c.name, why));
    }
  }
}

std::string describe_model_exchange(const ModelDescription& md) {
  const MeModel me = me_model(md);
  std::string clocks;
  for (const Variable& c : md.variables) {
    if (c.type != VariableType::clock) continue;
    const std::string why = unsupported(c, true);
    const auto interval = interval_of(c);
    clocks += fmt::format(
        "{}{} (vr {}, {}, {}{}): {}", clocks.empty() ? "" : "; ", c.name, c.value_reference,
        to_string(c.causality), to_string(c.interval_variability),
        interval ? fmt::format(", every {} s from {} s", *interval, c.shift_decimal.value_or(0.0))
                 : "",
        why.empty() ? "ticked" : "NOT supported: " + why);
  }
  return fmt::format(
      "model exchange: model identifier {}, {} continuous state{}, {} event indicator{}, clocks: "
      "{}",
      me.model_identifier, me.states, me.states == 1 ? "" : "s", me.event_indicators,
      me.event_indicators == 1 ? "" : "s", clocks.empty() ? "none" : clocks);
}

}  // namespace hil::io::fmu
