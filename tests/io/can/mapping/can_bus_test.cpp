// A mapped CAN bus in the loop: received signals drive input channels, checked by
// length, alive counter and CRC; a silent ECU times out into the safe state and recovers;
// transmitted messages leave on their cycle with counter and CRC; every name is checked.

#include "io/can/mapping/can_bus.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "io/can/dbc/dbc_codec.hpp"
#include "io/can/dbc/dbc_parser.hpp"
#include "io/can/e2e/alive_counter.hpp"
#include "io/can/transport/transport_factory.hpp"

namespace hil::io::can {
namespace {

constexpr double kPeriod = 0.001;  // 1 ms ticks: 20 ms command cycle = 20 ticks

dbc::Database mapping_dbc() { return dbc::load_dbc(HIL_SOURCE_DIR "/tests/io/data/mapping.dbc"); }

/// The rig's bus (name "ecu") and the ECU's end of the same virtual bus.
class CanBusTest : public ::testing::Test {
 protected:
  void SetUp() override {
    speed_ = table_.add(
        {.name = "vehicle.speed_ref", .unit = "rad/s", .direction = rt::Direction::input});
    steer_ =
        table_.add({.name = "vehicle.steer", .unit = "rad", .direction = rt::Direction::input});
    brake_ = table_.add({.name = "vehicle.brake", .unit = "-", .direction = rt::Direction::input});
    wheel_ = table_.add({.name = "vehicle.wheel_speed", .unit = "rad/s"});
    volts_ = table_.add({.name = "vehicle.voltage", .unit = "V"});
  }

  CanBusSpec spec() const {
    CanBusSpec s;
    s.name = "ecu";
    s.uri = "virtual:" + bus_name_;
    s.database = mapping_dbc();
    RxMessageSpec rx;
    rx.message = "ECU_Command";
    rx.signals = {{"SpeedRef", "vehicle.speed_ref"}, {"Steer", "vehicle.steer"}};
    rx.alive_counter = "Counter";
    rx.crc = "Checksum";
    rx.hold_cycles = 1;
    rx.safe = {{"vehicle.speed_ref", 0.0}, {"vehicle.brake", 1.0}};
    s.rx.push_back(rx);
    TxMessageSpec tx;
    tx.message = "Vehicle_State";
    tx.signals = {{"WheelSpeed", "vehicle.wheel_speed"}, {"Voltage", "vehicle.voltage"}};
    tx.alive_counter = "Alive";
    tx.crc = "Crc";
    s.tx.push_back(tx);
    return s;
  }

  std::unique_ptr<CanBus> make_bus(std::vector<MappingProblem>& problems) {
    return CanBus::create(spec(), table_, kPeriod, 0, problems);
  }

  /// An ECU_Command frame as a correct ECU would send it.
  CanFrame command(double speed, double steer, std::uint32_t counter) const {
    const dbc::CompiledMessage m = dbc::compile(*mapping_dbc().find_message("ECU_Command"));
    CanFrame f;
    const std::vector<double> values{speed, steer, static_cast<double>(counter), 0.0};
    EXPECT_TRUE(dbc::encode_frame(m, values, f).ok());
    f.data[7] = crc8_j1850(f.payload(), 7, std::nullopt);
    return f;
  }

  std::string bus_name_ = ::testing::UnitTest::GetInstance()->current_test_info()->name();
  rt::ChannelTable table_;
  rt::ChannelId speed_{}, steer_{}, brake_{}, wheel_{}, volts_{};
};

TEST(E2e, Crc8J1850CheckValueAndCounters) {
  const std::vector<std::uint8_t> check{'1', '2', '3', '4', '5', '6', '7', '8', '9'};
  EXPECT_EQ(crc8_j1850(check, check.size(), std::nullopt), 0x4B);  // the standard check value
  std::vector<std::uint8_t> with_slot = check;
  with_slot.insert(with_slot.begin() + 3, 0xAA);  // a CRC byte in the middle is skipped
  EXPECT_EQ(crc8_j1850(with_slot, 3, std::nullopt), 0x4B);
  EXPECT_NE(crc8_j1850(check, check.size(), std::uint8_t{0x12}), 0x4B);  // data id counts
  EXPECT_EQ(check_counter(std::nullopt, 5, 4), CounterCheck::first);
  EXPECT_EQ(check_counter(15, 0, 4), CounterCheck::next);  // wraps at 2^4
  EXPECT_EQ(check_counter(3, 6, 4), CounterCheck::jump);
  EXPECT_EQ(check_counter(6, 6, 4), CounterCheck::repeat);
}

TEST_F(CanBusTest, ReceivedSignalsDriveTheirChannelsAndBadFramesAreDropped) {
  std::vector<MappingProblem> problems;
  const auto bus = make_bus(problems);
  ASSERT_NE(bus, nullptr) << problems.front().field << ": " << problems.front().message;
  table_.freeze();
  const auto ecu = open_transport("virtual:" + bus_name_);

  ASSERT_EQ(ecu->send(command(12.34, -0.2, 1), 0), SendStatus::ok);
  bus->read(1, table_);
  EXPECT_NEAR(table_.get(speed_), 12.34, 1e-12);
  EXPECT_NEAR(table_.get(steer_), -0.2, 1e-12);

  CanFrame bad_crc = command(5.0, 0.0, 2);
  bad_crc.data[7] ^= 0x01;
  CanFrame repeat = command(6.0, 0.0, 1);  // counter 1 again
  CanFrame short_frame = command(7.0, 0.0, 3);
  short_frame.length = 6;
  CanFrame unknown = command(8.0, 0.0, 4);
  unknown.id = 0x123;
  for (const CanFrame& f : {bad_crc, repeat, short_frame, unknown}) (void)ecu->send(f, 1);
  bus->read(2, table_);
  EXPECT_NEAR(table_.get(speed_), 12.34, 1e-12);  // none of them applied
  EXPECT_EQ(bus->rx_counters(0).errors.load(), 3U);
  EXPECT_EQ(bus->unknown_frames(), 1U);

  (void)ecu->send(command(9.0, 0.1, 5), 2);  // a jump from 1 to 5: frames lost, accepted
  bus->read(3, table_);
  EXPECT_NEAR(table_.get(speed_), 9.0, 1e-12);
  EXPECT_EQ(bus->rx_counters(0).counter_jumps.load(), 1U);
  EXPECT_EQ(bus->rx_counters(0).frames.load(), 2U);
}

TEST_F(CanBusTest, SilentEcuTimesOutHoldsThenForcesTheSafeStateAndRecovers) {
  std::vector<MappingProblem> problems;
  const auto bus = make_bus(problems);
  ASSERT_NE(bus, nullptr);
  table_.freeze();
  const auto ecu = open_transport("virtual:" + bus_name_);
  const rt::ChannelId status = table_.resolve("can.ecu.ecu_command.timeout");

  std::uint32_t counter = 0;
  for (std::int64_t tick = 0; tick <= 100; ++tick) {  // ECU alive: a frame every 20 ms
    if (tick % 20 == 0) (void)ecu->send(command(10.0, 0.0, ++counter), tick);
    bus->read(tick, table_);
  }
  ASSERT_EQ(table_.get(status), 0.0);
  // Last frame at tick 100. Timeout 3 cycles = 60 ticks, then hold 1 cycle = 20 ticks.
  std::int64_t timed_out = -1;
  std::int64_t safe = -1;
  for (std::int64_t tick = 101; tick <= 200; ++tick) {
    bus->read(tick, table_);
    if (timed_out < 0 && table_.get(status) == 1.0) timed_out = tick;
    if (safe < 0 && table_.get(brake_) == 1.0) safe = tick;
  }
  EXPECT_EQ(timed_out, 161);  // within 3 cycles of the last frame
  EXPECT_EQ(safe, 181);       // held one more cycle
  EXPECT_EQ(table_.get(speed_), 0.0);
  EXPECT_EQ(bus->rx_counters(0).timeouts.load(), 1U);

  (void)ecu->send(command(4.0, 0.0, ++counter), 200);
  bus->read(201, table_);
  EXPECT_EQ(table_.get(status), 0.0);  // frames resumed
  EXPECT_EQ(table_.get(speed_), 4.0);
}

TEST_F(CanBusTest, TransmittedMessagesKeepTheirCycleCounterAndCrc) {
  std::vector<MappingProblem> problems;
  const auto bus = make_bus(problems);
  ASSERT_NE(bus, nullptr);
  table_.freeze();
  const auto ecu = open_transport("virtual:" + bus_name_);
  const dbc::CompiledMessage state = dbc::compile(*mapping_dbc().find_message("Vehicle_State"));
  std::vector<TimedFrame> got(8);
  std::vector<std::int64_t> ticks;
  std::vector<std::uint32_t> counters;
  for (std::int64_t tick = 0; tick < 100; ++tick) {
    table_.set(wheel_, 0.5 * static_cast<double>(tick));
    table_.set(volts_, 48.1);
    bus->write(tick, table_);
    const std::size_t n = ecu->receive(got, tick);
    for (std::size_t i = 0; i < n; ++i) {
      const CanFrame& f = got[i].frame;
      ASSERT_EQ(f.id, 512U);
      EXPECT_EQ(f.data[7], crc8_j1850(f.payload(), 7, std::nullopt));
      std::vector<dbc::SignalValue> v(4);
      (void)dbc::decode_message(state, f.payload(), v);
      EXPECT_NEAR(v[0].physical, 0.5 * static_cast<double>(tick), 1e-9);
      EXPECT_NEAR(v[1].physical, 48.1, 0.01);
      ticks.push_back(tick);
      counters.push_back(static_cast<std::uint32_t>(v[2].physical));
    }
  }
  ASSERT_EQ(ticks.size(), 10U);  // 10 ms cycle over 100 ms
  for (std::size_t i = 1; i < ticks.size(); ++i) {
    EXPECT_EQ(ticks[i] - ticks[i - 1], 10);
    EXPECT_EQ(counters[i], (counters[i - 1] + 1) % 16);
  }
  EXPECT_EQ(table_.get(table_.resolve("can.ecu.tx_frames")), 10.0);
}

TEST_F(CanBusTest, EveryBadNameIsReportedWithItsField) {
  CanBusSpec s = spec();
  s.rx[0].message = "ECU_Comand";
  s.tx[0].signals[1].signal = "Volts";
  s.tx[0].signals[0].channel = "vehicle.wheel_sped";
  RxMessageSpec into_output;
  into_output.message = "Vehicle_State";
  into_output.signals = {{"WheelSpeed", "vehicle.voltage"}};
  s.rx.push_back(into_output);
  TxMessageSpec no_cycle;
  no_cycle.message = "No_Cycle";
  s.tx.push_back(no_cycle);
  std::vector<MappingProblem> problems;
  EXPECT_EQ(CanBus::create(s, table_, kPeriod, 0, problems), nullptr);
  std::vector<std::string> fields;
  for (const MappingProblem& p : problems) fields.push_back(p.field);
  EXPECT_EQ(fields, (std::vector<std::string>{"rx[0].message", "rx[1].signals[0].channel",
                                              "tx[0].signals[0].channel", "tx[0].signals[1].signal",
                                              "tx[1].cycle"}));
  EXPECT_NE(problems[2].message.find("did you mean 'vehicle.wheel_speed'"), std::string::npos)
      << problems[2].message;
  EXPECT_NE(problems[1].message.find("is an output"), std::string::npos);
}

}  // namespace
}  // namespace hil::io::can
