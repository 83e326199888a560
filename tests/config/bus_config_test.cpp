// config/bus_spec.hpp: the `bus` block checked with every problem at its line, one
// source per channel across CAN and the bus, the mirror's peers and key file.

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "tests/config/loader_fixture.hpp"

namespace hil::config {
namespace {

using testing::Errors;
using BusConfigTest = testing::LoaderTest;

std::string read_file(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

TEST_F(BusConfigTest, RegionsLoadIntoTheSettings) {
  const LoadResult result = load(R"(
    vehicle { preset: "ravon" }
    bus {
      regions { name: "behaviour" direction: INPUT writer: "behaviour"
                channels: "vehicle.wheel.fl.speed_ref" timeout_ticks: 40
                on_timeout { hold_ticks: 2 set { channel: "vehicle.brake.park" value: 1 } }
                ranges { channel: "vehicle.wheel.fl.speed_ref" min: -10 max: 10 mode: CLAMP } }
      regions { name: "state" direction: OUTPUT channels: "vehicle.wheel.fl.speed" every_ticks: 4 }
    })");
  ASSERT_TRUE(result.ok()) << messages(result).front();
  const io::bus::BusSpec& bus = *result.settings->bus;
  ASSERT_EQ(bus.regions.size(), 2U);
  EXPECT_EQ(bus.regions[0].timeout_ticks, 40U);
  EXPECT_EQ(bus.regions[0].hold_ticks, 2U);
  EXPECT_TRUE(bus.regions[0].ranges[0].clamp);
  EXPECT_EQ(bus.regions[1].direction, io::bus::RegionDirection::output);
  EXPECT_EQ(bus.regions[1].every_ticks, 4U);
  EXPECT_FALSE(bus.mirror);
}

TEST_F(BusConfigTest, EveryProblemPointsAtItsLine) {
  EXPECT_EQ(load_errors(R"(vehicle { preset: "ravon" }
bus {
  regions { name: "Behaviour" direction: INPUT writer: "hilsim"
            channels: "vehicle.wheel.fl.speed" }
  regions { name: "env" writer: "env" channels: "env.road.friction.fl" }
  regions { name: "state" direction: OUTPUT writer: "x" channels: "vehicle.wheel.fl.sped" }
})"),
            (Errors{
                "base.pbtxt:3:19: bus.regions[0].name: \"Behaviour\": expected a lower snake "
                "case name",
                "base.pbtxt:3:56: bus.regions[0].writer: writer \"hilsim\": expected a lower "
                "snake case role other than \"hilsim\"",
                "base.pbtxt:5:3: bus.regions[1]: no direction; expected direction: INPUT or "
                "OUTPUT",
                "base.pbtxt:6:53: bus.regions[2].writer: writer is for INPUT regions; hilsim "
                "writes an OUTPUT region",
                "base.pbtxt:4:23: bus.regions[0].channels[0]: vehicle.wheel.fl.speed is an "
                "output of the rig; an input region writes input channels (hilsim check "
                "--print lists them)",
                "base.pbtxt:6:67: bus.regions[2].channels[0]: unknown channel "
                "'vehicle.wheel.fl.sped'; did you mean 'vehicle.wheel.fl.speed_ref'?",
            }));
}

TEST_F(BusConfigTest, AChannelCanFeedsIsNotAlsoABusInput) {
  dir_.write("bus.dbc", read_file(HIL_SOURCE_DIR "/tests/io/data/mapping.dbc"));
  const Errors errors = load_errors(R"(vehicle { preset: "ravon" }
can { buses { name: "ecu" uri: "virtual:bus_config_test" dbc: "bus.dbc"
              rx { message: "ECU_Command" timeout_ms: 50
                   signals { signal: "SpeedRef" channel: "vehicle.wheel.fl.speed_ref" } } } }
bus {
  regions { name: "behaviour" direction: INPUT writer: "behaviour"
            channels: "vehicle.wheel.fr.speed_ref"
            channels: "vehicle.wheel.fl.speed_ref" }
})");
  ASSERT_EQ(errors.size(), 1U);
  EXPECT_EQ(errors[0],
            "base.pbtxt:8:23: bus.regions[0].channels[1]: vehicle.wheel.fl.speed_ref is fed by "
            "CAN bus \"ecu\" (message ECU_Command): a channel has one source (remove it from "
            "the CAN mapping or from this region)");
}

TEST_F(BusConfigTest, TheMirrorNeedsAKeyAndKnownRegions) {
  const Errors errors = load_errors(R"(vehicle { preset: "ravon" }
bus {
  regions { name: "battery" direction: INPUT writer: "battery"
            channels: "vehicle.wheel.fl.speed_ref" }
  regions { name: "state" direction: OUTPUT channels: "vehicle.wheel.fl.speed" }
  mirror { peers { address: "127.0.0.1:29501" send: "stat" receive: "state" receive: "battery" }
           peers { address: "127.0.0.1:29502" receive: "battery" } }
})");
  ASSERT_EQ(errors.size(), 4U) << errors[0];
  EXPECT_NE(errors[0].find("bus.mirror: no key_file"), std::string::npos) << errors[0];
  EXPECT_NE(errors[1].find("bus.mirror.peers[0].send[0]: no region \"stat\""), std::string::npos)
      << errors[1];
  EXPECT_NE(errors[2].find("region \"state\" is an OUTPUT"), std::string::npos) << errors[2];
  EXPECT_NE(errors[3].find("already received at bus.mirror.peers[0].receive[1]"), std::string::npos)
      << errors[3];
}

}  // namespace
}  // namespace hil::config
