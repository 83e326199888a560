// plan_bus (io/can/mapping/bus_plan.cpp) on the body bus of tests/tools/restbus/vehicle.dbc:
// what cannot work is reported at its field (unknown nodes, a tx block on the device under
// test's message, E2E blocks), a message without interaction-layer support is left out, and
// the plan says what happens to each message.

#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "io/can/mapping/bus_plan.hpp"
#include "io/can/mapping/can_bus.hpp"
#include "io/can/transport/transport_factory.hpp"
#include "tests/io/can/mapping/rest_bus_fixture.hpp"

namespace hil::io::can {
namespace {

using namespace rest_bus_testing;  // NOLINT(google-build-using-namespace): the fixture's helpers

TEST(RestBusPlan, UnknownNodesAreProblemsListingTheNodes) {
  CanBusSpec s = body_spec("plan_nodes");
  s.simulate_nodes = {"ABS", "ESPX"};
  s.except_nodes = {"EPZ"};
  s.dut_nodes = {"EPSS"};
  std::vector<MappingProblem> problems;
  plan_bus(s, problems);
  ASSERT_EQ(problems.size(), 3U) << fields_of(problems);
  std::map<std::string, std::string> by_field;
  for (const MappingProblem& p : problems) by_field[p.field] = p.message;
  EXPECT_EQ(by_field["simulate_nodes[1]"],
            "no node \"ESPX\" in vehicle.dbc (\"*\": every node); its nodes: ABS, ESP, EPS, GW, "
            "BCM, TCU, EMS, ACU, IPC, HVAC, SAS, VCU");
  EXPECT_EQ(by_field["except_nodes[0]"],
            "no node \"EPZ\" in vehicle.dbc; its nodes: ABS, ESP, EPS, GW, BCM, TCU, EMS, ACU, "
            "IPC, HVAC, SAS, VCU");
  EXPECT_NE(by_field["dut_nodes[0]"].find("no node \"EPSS\""), std::string::npos);

  CanBusSpec bad = body_spec("plan_nodes");  // CanBus::create plans too, and refuses
  bad.except_nodes = {"EPZ"};
  rt::ChannelTable table;
  std::vector<MappingProblem> create_problems;
  EXPECT_EQ(CanBus::create(bad, table, kPeriod, 0, create_problems), nullptr);
  ASSERT_FALSE(create_problems.empty());
  EXPECT_EQ(create_problems.front().field, "except_nodes[0]");
}

TEST(RestBusPlan, ATxBlockCannotSendTheDevicesMessage) {
  CanBusSpec s = body_spec("plan_tx");
  s.tx.push_back({.message = "EPS_Status"});
  std::vector<MappingProblem> problems;
  plan_bus(s, problems);
  ASSERT_EQ(problems.size(), 1U) << fields_of(problems);
  EXPECT_EQ(problems[0].field, "tx[0].message");
  EXPECT_NE(problems[0].message.find("EPS_Status"), std::string::npos);
  EXPECT_NE(problems[0].message.find("device under test"), std::string::npos);
}

TEST(RestBusPlan, E2eBlocksMustNameAMessageTheirHeaderFits) {
  CanBusSpec missing = body_spec("plan_e2e");
  missing.e2e = {{"ESP_Yaw", profile(e2e::Profile::p01, 0x12, 0, 1)}};
  std::vector<MappingProblem> problems;
  plan_bus(missing, problems);
  ASSERT_EQ(problems.size(), 1U) << fields_of(problems);
  EXPECT_EQ(problems[0].field, "e2e[0].message");
  EXPECT_EQ(problems[0].message, "no message \"ESP_Yaw\" in vehicle.dbc");

  CanBusSpec too_long = body_spec("plan_e2e");  // P05's 24-bit header from bit 48 of 8 bytes
  too_long.e2e = {{"ESP_Event", profile(e2e::Profile::p05, 0x1234, 48, 1)}};
  problems.clear();
  plan_bus(too_long, problems);
  ASSERT_EQ(problems.size(), 1U) << fields_of(problems);
  EXPECT_EQ(problems[0].field, "e2e[0]");
  EXPECT_NE(problems[0].message.find("ESP_Event"), std::string::npos) << problems[0].message;
  EXPECT_NE(problems[0].message.find("P05"), std::string::npos) << problems[0].message;

  CanBusSpec unplanned = body_spec("plan_e2e");  // CanBus::create plans too, and refuses
  unplanned.e2e = too_long.e2e;
  rt::ChannelTable table;
  problems.clear();
  EXPECT_EQ(CanBus::create(unplanned, table, kPeriod, 0, problems), nullptr);
  ASSERT_EQ(problems.size(), 1U) << fields_of(problems);
  EXPECT_EQ(problems[0].field, "e2e[0]");
}

TEST(RestBusPlan, AMessageWithoutInteractionLayerSupportIsNotSent) {
  CanBusSpec s = body_spec("plan_il");
  s.database = vehicle_dbc("BA_ \"GenMsgILSupport\" BO_ 196 0;\n");  // ABS_WheelPulses: "No"
  CanBusSpec planned = s;
  std::vector<MappingProblem> problems;
  plan_bus(planned, problems);
  ASSERT_TRUE(problems.empty()) << fields_of(problems);
  EXPECT_EQ(plan_line(planned, "ABS_WheelPulses"),
            "ABS_WheelPulses 0xC4 from ABS: not sent: GenMsgILSupport \"No\"");
  EXPECT_TRUE(std::none_of(planned.tx.begin(), planned.tx.end(),
                           [](const TxMessageSpec& t) { return t.message == "ABS_WheelPulses"; }));

  rt::ChannelTable table;
  const auto bus = CanBus::create(s, table, kPeriod, 0, problems);
  ASSERT_NE(bus, nullptr) << fields_of(problems);
  table.freeze();
  const auto peer = open_transport("virtual:plan_il");
  std::vector<TimedFrame> got(256);
  std::size_t pulses = 0;
  std::size_t speeds = 0;
  for (std::int64_t tick = 0; tick < 100; ++tick) {
    bus->write(tick, table);
    const std::size_t n = peer->receive(got, tick);
    for (std::size_t i = 0; i < n; ++i) {
      pulses += got[i].frame.id == 196 ? 1U : 0U;
      speeds += got[i].frame.id == 192 ? 1U : 0U;
    }
  }
  EXPECT_EQ(pulses, 0U);
  EXPECT_EQ(speeds, 10U);  // the rest of ABS goes on
}

TEST(RestBusPlan, ThePlanSaysWhatHappensToEachMessage) {
  CanBusSpec s = body_spec("plan_lines");
  s.except_nodes = {"EPS", "HVAC"};
  std::vector<MappingProblem> problems;
  plan_bus(s, problems);
  ASSERT_TRUE(problems.empty()) << fields_of(problems);
  EXPECT_TRUE(s.planned);
  EXPECT_EQ(s.plan.size(), 55U);  // one line per message: node lists are given

  EXPECT_EQ(plan_line(s, "ABS_WheelSpeeds"),
            "ABS_WheelSpeeds 0xC0 from ABS: sent, cyclic 10 ms (GenMsgSendType \"Cyclic\", the "
            "default); E2E P01 data id 0x1C0 (both) (vehicle.dbc)");
  EXPECT_EQ(plan_line(s, "ESP_YawRate"),
            "ESP_YawRate 0xD0 from ESP: sent, cyclic 10 ms (GenMsgSendType \"Cyclic\", the "
            "default); E2E P01 data id 0x2B3 (nibble) (rig)");
  EXPECT_EQ(plan_line(s, "GW_Wakeup"),
            "GW_Wakeup 0x5F8 from GW: sent, on change only (GenMsgSendType \"NoMsgSendType\")");
  EXPECT_EQ(plan_line(s, "HVAC_Status"),
            "HVAC_Status 0x540 from HVAC: not sent: its node is excepted");
  EXPECT_EQ(plan_line(s, "EPS_Status"),
            "EPS_Status 0xE0 from EPS: checked (device under test), timeout 30 ms; E2E P01 data "
            "id 0x0E0 (low) (vehicle.dbc)");
  EXPECT_EQ(plan_line(s, "DIAG_Request"),
            "DIAG_Request 0x7DF from Vector__XXX: not sent: no node sends it (Vector__XXX)");

  // Planning twice changes nothing.
  const std::vector<std::string> before = s.plan;
  const std::size_t tx = s.tx.size();
  plan_bus(s, problems);
  EXPECT_EQ(s.plan, before);
  EXPECT_EQ(s.tx.size(), tx);
}

}  // namespace
}  // namespace hil::io::can
