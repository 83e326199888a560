// The `can` block: buses with DBC files relative to the rig file, mapping names resolved
// against the rig's channels, every problem located; the shipped rigs pass.

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "tests/config/loader_fixture.hpp"

namespace hil::config {
namespace {

using testing::Errors;
using CanConfigTest = testing::LoaderTest;

std::string read_file(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

TEST_F(CanConfigTest, AMappedBusLoadsItsDbcRelativeToTheRigFile) {
  dir_.write("bus.dbc", read_file(HIL_SOURCE_DIR "/tests/io/data/mapping.dbc"));
  const LoadResult result = load(R"(
    vehicle { preset: "ravon" }
    can {
      buses {
        name: "ecu"
        uri: "virtual:config_test"
        dbc: "bus.dbc"
        rx { message: "ECU_Command"
             signals { signal: "SpeedRef" channel: "vehicle.wheel.fl.speed_ref" }
             timeout_ms: 50
             on_timeout { set { channel: "vehicle.brake.park" value: 1 } } }
        tx { message: "Vehicle_State" cycle_ms: 5
             signals { signal: "WheelSpeed" channel: "vehicle.wheel.fl.speed" } }
      }
    })");
  ASSERT_TRUE(result.ok()) << ::testing::PrintToString(messages(result));
  ASSERT_EQ(result.settings->can.size(), 1U);
  const io::can::CanBusSpec& bus = result.settings->can[0];
  EXPECT_EQ(bus.name, "ecu");
  EXPECT_EQ(bus.database.messages.size(), 3U);
  EXPECT_EQ(bus.rx[0].timeout_s, 0.05);
  EXPECT_EQ(bus.rx[0].safe.size(), 1U);
  EXPECT_EQ(bus.tx[0].cycle_s, 0.005);
}

TEST_F(CanConfigTest, MappingErrorsPointAtTheLineInTheRigFile) {
  dir_.write("bus.dbc", read_file(HIL_SOURCE_DIR "/tests/io/data/mapping.dbc"));
  EXPECT_EQ(
      load_errors("vehicle {}\n"
                  "can { buses {\n"
                  "  name: \"ecu\" uri: \"virtual:x\" dbc: \"bus.dbc\"\n"
                  "  rx { message: \"ECU_Command\"\n"
                  "       signals { signal: \"SpeedRf\" channel: \"vehicle.wheel.fl.speed\" } }\n"
                  "  tx { message: \"No_Cycle\" }\n"
                  "} }\n"),
      (Errors{
          "base.pbtxt:5:26: can.buses[0].rx[0].signals[0].signal: no signal \"SpeedRf\" in "
          "message ECU_Command of " +
              (dir_.path() / "bus.dbc").string() + "; did you mean \"SpeedRef\"?",
          "base.pbtxt:5:45: can.buses[0].rx[0].signals[0].channel: channel "
          "vehicle.wheel.fl.speed is an output; a received signal must drive an input "
          "channel",
          "base.pbtxt:6:3: can.buses[0].tx[0].cycle_ms: \"No_Cycle\" has no GenMsgCycleTime "
          "in the DBC; expected a cycle_ms",
      }));
}

TEST_F(CanConfigTest, TheReceiveBudgetAndBitRatesAreCheckedAndLocated) {
  dir_.write("bus.dbc", read_file(HIL_SOURCE_DIR "/tests/io/data/mapping.dbc"));
  EXPECT_EQ(load_errors("vehicle {}\n"
                        "can { buses {\n"
                        "  name: \"ecu\" uri: \"virtual:x\" dbc: \"bus.dbc\"\n"
                        "  bit_rate: 2000000\n"
                        "  data_bit_rate: 9000000\n"
                        "  max_rx_frames_per_tick: 0\n"
                        "} }\n"),
            (Errors{
                "base.pbtxt:4:13: can.buses[0].bit_rate: 2000000 is out of range; expected "
                "1..1000000 bit/s (ISO 11898-1: at most 1 Mbit/s outside a CAN FD data phase)",
                "base.pbtxt:5:18: can.buses[0].data_bit_rate: 9000000 is out of range; "
                "expected 1..8000000 bit/s (a CAN FD data phase, not slower than bit_rate)",
                "base.pbtxt:6:27: can.buses[0].max_rx_frames_per_tick: 0 is out of range; "
                "expected 1..1000000 frames",
            }));
  const LoadResult result = load(R"(
    vehicle { preset: "ravon" }
    can { buses { name: "ecu" uri: "virtual:budget_config" dbc: "bus.dbc"
                  bit_rate: 500000 max_rx_frames_per_tick: 40 } })");
  ASSERT_TRUE(result.ok()) << ::testing::PrintToString(messages(result));
  const io::can::CanBusSpec& bus = result.settings->can[0];
  EXPECT_EQ(bus.bit_rate, 500'000U);
  EXPECT_EQ(bus.data_bit_rate, std::nullopt);
  EXPECT_EQ(bus.max_rx_frames_per_tick, 40U);
}

TEST_F(CanConfigTest, DbcAndUriErrorsKeepTheirOwnPositions) {
  dir_.write("broken.dbc",
             "VERSION \"x\"\nBO_ 256 Msg: 8 ECU\n SG_ A : 0|8@2+ (1,0) [0|0] \"\" X\n");
  const Errors errors = load_errors(
      "can { buses { name: \"ecu\" uri: \"carrier-pigeon:coop\" dbc: \"broken.dbc\" } }\n");
  ASSERT_EQ(errors.size(), 2U);
  EXPECT_NE(errors[0].find("can.buses[0].uri: CAN transport URI 'carrier-pigeon:coop'"),
            std::string::npos)
      << errors[0];
  EXPECT_NE(errors[1].find("broken.dbc:3:"), std::string::npos) << errors[1];
}

TEST_F(CanConfigTest, ARigReadsItsDbcStrictlyUnlessTheBusSaysDbcLenient) {
  // A production file: the command id written without the 29-bit flag, a stray statement.
  std::string dbc = read_file(HIL_SOURCE_DIR "/tests/io/data/mapping.dbc");
  const std::string extended = "BO_ 419361024 ECU_Command:";  // 0x18FEF100
  dbc.replace(dbc.find("BO_ 256 ECU_Command:"), std::string("BO_ 256 ECU_Command:").size(),
              extended);
  for (const char* id : {"BA_ \"GenMsgCycleTime\" BO_ 256 ", "CM_ BO_ 256 "}) {
    if (const std::size_t at = dbc.find(id); at != std::string::npos) {
      dbc.replace(at, std::string(id).size(),
                  std::string(id).replace(std::string(id).find("256"), 3, "419361024"));
    }
  }
  dbc += "BO_ 536870912 Broken: 8 ECU\n";
  dir_.write("field.dbc", dbc);
  const std::string rig = R"(
    vehicle { preset: "ravon" }
    can {
      buses {
        name: "ecu" uri: "virtual:config_lenient" dbc: "field.dbc" %s
        rx { message: "ECU_Command" timeout_ms: 50
             signals { signal: "SpeedRef" channel: "vehicle.wheel.fl.speed_ref" } }
      }
    })";
  const auto with = [&](std::string_view option) {
    std::string text = rig;
    text.replace(text.find("%s"), 2, option);
    return text;
  };
  const Errors strict = load_errors(with(""));
  ASSERT_EQ(strict.size(), 1U);
  EXPECT_NE(strict[0].find("can.buses[0].dbc: " + (dir_.path() / "field.dbc").string()),
            std::string::npos)
      << strict[0];
  EXPECT_NE(strict[0].find("does not fit 11 bits and has no 0x80000000 flag; a rig reads its DBC "
                           "strictly"),
            std::string::npos)
      << strict[0];

  const LoadResult lenient = load(with("dbc_lenient: true"));
  ASSERT_TRUE(lenient.ok()) << ::testing::PrintToString(messages(lenient));
  const io::can::dbc::Database& db = lenient.settings->can[0].database;
  const io::can::dbc::Message* command = db.find_message("ECU_Command");
  ASSERT_NE(command, nullptr);
  EXPECT_TRUE(command->extended);
  EXPECT_EQ(command->id, 0x18FEF100U);
  EXPECT_EQ(db.find_message("Broken"), nullptr);
  ASSERT_EQ(db.warnings.size(), 2U);  // what was assumed, what was skipped
  EXPECT_NE(db.warnings[0].find("read as the 29-bit id 0x18FEF100"), std::string::npos);
  EXPECT_NE(db.warnings[1].find("the BO_ statement at line"), std::string::npos);
}

TEST(ShippedRigs, EveryRigPassesCheck) {
  for (const char* rig : {"/hil_rigs/ravon/rig.pbtxt", "/hil_rigs/bench/rig.pbtxt"}) {
    const LoadResult result = load_rig_config(std::string(HIL_SOURCE_DIR) + rig);
    EXPECT_TRUE(result.ok()) << rig << ": " << ::testing::PrintToString(result.errors.size());
    for (const ConfigError& e : result.errors) ADD_FAILURE() << e.to_string();
  }
}

}  // namespace
}  // namespace hil::config
