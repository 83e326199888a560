#include "config/rig/validate.hpp"

#include "config/driver_spec.hpp"
#include "config/executive_rules.hpp"
#include "config/executive_spec.hpp"
#include "config/vehicle_spec.hpp"

namespace hil::config {

namespace {

constexpr std::string_view kExecutive = "executive";
constexpr std::string_view kVehicle = "vehicle";
constexpr std::string_view kDriver = "driver";

}  // namespace

std::vector<IntegerRange> rig_ranges(const Machine& machine) {
  return executive_ranges(kExecutive, machine);
}

ConfigErrors validate(const RigConfig& config, const SourceMap& sources, const Machine& machine) {
  ConfigErrors errors = check_ranges(config, rig_ranges(machine), sources);
  if (errors.empty()) {  // consistency rules assume values in range
    errors = check_executive_consistency(config.executive(), kExecutive, sources);
  }
  if (errors.empty() && config.has_vehicle()) {  // the vehicle's step is the executive's period
    const double dt = static_cast<double>(to_executive_config(config.executive()).period) /
                      static_cast<double>(rt::kSecond);
    errors = check_vehicle(config.vehicle(), dt, kVehicle, sources);
  }
  if (config.has_driver()) {  // its own fields; its channels are the loader's (check_driver)
    ConfigErrors driver = check_driver_fields(config.driver(), kDriver, sources);
    errors.insert(errors.end(), driver.begin(), driver.end());
  }
  return errors;
}

}  // namespace hil::config
