#include "config/validate.hpp"

#include "config/executive_rules.hpp"

namespace hil::config {

namespace {

constexpr std::string_view kExecutive = "executive";

}  // namespace

std::vector<IntegerRange> rig_ranges(const Machine& machine) {
  return executive_ranges(kExecutive, machine);
}

ConfigErrors validate(const RigConfig& config, const SourceMap& sources, const Machine& machine) {
  ConfigErrors errors = check_ranges(config, rig_ranges(machine), sources);
  if (errors.empty()) {  // consistency rules assume values in range
    errors = check_executive_consistency(config.executive(), kExecutive, sources);
  }
  return errors;
}

}  // namespace hil::config
