#pragma once
// Shared by the rest-bus tests (rest_bus_test.cpp, bus_plan_test.cpp): the body bus of
// tests/tools/restbus/vehicle.dbc as a rig would write it (simulate "*", except and check EPS,
// the overlay's E2E blocks) and small helpers.

#include <array>
#include <cstdint>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "io/can/dbc/dbc_parser.hpp"
#include "io/can/e2e/profile.hpp"
#include "io/can/mapping/can_bus_spec.hpp"

namespace hil::io::can::rest_bus_testing {

inline constexpr double kPeriod = 0.001;  // 1 ms ticks: GenMsgCycleTime in ms = ticks
inline std::string vehicle_text() {
  std::ifstream in(HIL_SOURCE_DIR "/tests/tools/restbus/vehicle.dbc");
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

/// vehicle.dbc, named as a rig names it, with `extra` statements appended.
inline dbc::Database vehicle_dbc(const std::string& extra = "") {
  return dbc::parse_dbc(vehicle_text() + extra, "vehicle.dbc");
}

inline e2e::ProfileSpec profile(e2e::Profile p, std::uint16_t data_id, std::uint32_t offset_bits,
                                std::uint8_t max_delta) {
  return {
      .profile = p, .data_id = data_id, .offset_bits = offset_bits, .max_delta_counter = max_delta};
}

inline e2e::ProfileSpec with_list(e2e::ProfileSpec p, const std::array<std::uint8_t, 16>& list) {
  p.data_id_list = list;
  return p;
}

/// The e2e blocks of tests/tools/restbus/restbus.pbtxt's body bus.
inline std::vector<E2eMessageSpec> rig_e2e() {
  e2e::ProfileSpec yaw = profile(e2e::Profile::p01, 0x2B3, 0, 1);
  yaw.data_id_mode = e2e::DataIdMode::nibble;
  return {
      {"ESP_YawRate", yaw},
      {"ABS_Status", profile(e2e::Profile::p11, 0x3A1, 0, 1)},
      {"GW_VehicleSpeed", with_list(profile(e2e::Profile::p02, 0, 0, 1),
                                    {0x10, 0x21, 0x32, 0x43, 0x54, 0x65, 0x76, 0x87, 0x98, 0xA9,
                                     0xBA, 0xCB, 0xDC, 0xED, 0xFE, 0x0F})},
      {"EMS_Torque", profile(e2e::Profile::p05, 0x7114, 16, 1)},
      {"ACU_CrashStatus",
       with_list(profile(e2e::Profile::p22, 0, 0, 1),
                 {5, 10, 15, 20, 25, 30, 35, 40, 45, 50, 55, 60, 65, 70, 75, 80})},
      {"GW_Config",
       with_list(profile(e2e::Profile::p22, 0, 0, 1),
                 {200, 201, 202, 203, 204, 205, 206, 207, 208, 209, 210, 211, 212, 213, 214, 215})},
      {"EPS_SteerTorque", profile(e2e::Profile::p05, 0x0E40, 0, 2)},
  };
}

/// The body bus of restbus.pbtxt on virtual link `link`.
inline CanBusSpec body_spec(const std::string& link) {
  CanBusSpec s;
  s.name = "body";
  s.uri = "virtual:" + link;
  s.database = vehicle_dbc();
  s.simulate_nodes = {"*"};
  s.except_nodes = {"EPS"};
  s.dut_nodes = {"EPS"};
  s.e2e = rig_e2e();
  return s;
}

inline std::string fields_of(const std::vector<MappingProblem>& problems) {
  std::string out;
  for (const MappingProblem& p : problems) out += p.field + ": " + p.message + "\n";
  return out;
}

/// The line of `plan` about `message`, or "".
inline std::string plan_line(const CanBusSpec& spec, const std::string& message) {
  for (const std::string& line : spec.plan) {
    if (line.starts_with(message + " ")) return line;
  }
  return "";
}

/// A frame the peer received, with the tick that sent it.

}  // namespace hil::io::can::rest_bus_testing
