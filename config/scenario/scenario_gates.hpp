#pragma once
// A scenario's pass criteria (`gates`, config/scenario/scenario.proto) to GateCheck: every value
// checked and located (scenario_checker.hpp). Setup phase; used by convert_scenario.

#include <string>

#include "config/rig/loader.hpp"
#include "config/scenario/scenario.pb.h"
#include "config/scenario/scenario_checker.hpp"
#include "config/scenario/scenario_spec.hpp"

namespace hil::config {

/// Gate `g` at field `at` ("gates[2]") of a run of `duration` s on `rig`.
[[nodiscard]] GateCheck convert_gate(const Scenario::Gate& g, const std::string& at,
                                     double duration, const config::RigSpec& rig,
                                     const Checker& check);

/// "lane", "speed_reached", … : the name of the gate's kind (a default gate name).
[[nodiscard]] const char* kind_name(const GateCheck& c);

}  // namespace hil::config
