// The mapped bus on the RT path (DESIGN.md §5): read() and write() — draining, checking,
// decoding, timeouts, safe state, encoding with counter and CRC, sending — allocate nothing;
// nor does a rest-bus simulation of 150 cyclic messages (a third E2E-protected), on-change and
// if-active ones, and a device under test's E2E-checked message.

#include <gtest/gtest.h>

#include <array>
#include <span>
#include <string>
#include <vector>

#include "io/can/dbc/dbc_codec.hpp"
#include "io/can/dbc/dbc_parser.hpp"
#include "io/can/e2e/alive_counter.hpp"
#include "io/can/e2e/profile.hpp"
#include "io/can/mapping/can_bus.hpp"
#include "io/can/transport/transport_factory.hpp"
#include "tests/support/allocation_counter.hpp"

namespace hil::io::can {
namespace {

TEST(CanBusBudget, ReadAndWriteAllocateNothing) {
  rt::ChannelTable table;
  (void)table.add({.name = "in.speed", .unit = "rad/s", .direction = rt::Direction::input});
  (void)table.add({.name = "in.brake", .unit = "-", .direction = rt::Direction::input});
  (void)table.add({.name = "out.speed", .unit = "rad/s"});
  CanBusSpec spec;
  spec.name = "ecu";
  spec.uri = "virtual:budget";
  spec.database = dbc::load_dbc(HIL_SOURCE_DIR "/tests/io/data/mapping.dbc");
  spec.rx.push_back({.message = "ECU_Command",
                     .signals = {{"SpeedRef", "in.speed"}},
                     .alive_counter = "Counter",
                     .crc = "Checksum",
                     .safe = {{"in.brake", 1.0}}});
  spec.tx.push_back({.message = "Vehicle_State",
                     .signals = {{"WheelSpeed", "out.speed"}},
                     .alive_counter = "Alive",
                     .crc = "Crc"});
  std::vector<MappingProblem> problems;
  const auto bus = CanBus::create(spec, table, 0.001, 0, problems);
  ASSERT_NE(bus, nullptr);
  table.freeze();
  FrameTap tap(1 << 16);
  bus->set_tap(&tap);
  const auto ecu = open_transport("virtual:budget");
  // The ECU's frames, made in advance (encoding them here is the test's work, not the bus's)
  const dbc::CompiledMessage command = dbc::compile(*spec.database.find_message("ECU_Command"));
  std::vector<CanFrame> frames(16);
  for (std::uint32_t c = 0; c < 16; ++c) {
    const std::vector<double> v{1.0 + c, 0.0, static_cast<double>(c), 0.0};
    (void)dbc::encode_frame(command, v, frames[c]);
    frames[c].data[7] = crc8_j1850(frames[c].payload(), 7, std::nullopt);
  }
  std::vector<TimedFrame> sink(64);
  const auto tick = [&](std::int64_t k) {
    // ECU: a command every 20 ms for 5 s, then silent (timeout and safe state), then back
    if (k % 20 == 0 && (k < 5000 || k > 8000)) {
      (void)ecu->send(frames[static_cast<std::size_t>(k / 20) % 16], k);
    }
    bus->read(k, table);
    bus->write(k, table);
    (void)ecu->receive(sink, k);
  };
  for (std::int64_t k = 0; k < 1000; ++k) tick(k);
  const std::uint64_t n = hil::testing::allocations_in([&] {
    for (std::int64_t k = 1000; k < 11'000; ++k) tick(k);
  });
  EXPECT_EQ(n, 0U);
  EXPECT_EQ(bus->rx_counters(0).timeouts.load(), 1U);  // the silent stretch did time out
  EXPECT_GT(bus->tx_counters(0).frames.load(), 1000U);
}

/// A network of SIM (150 cyclic messages of 8 bytes, 4 signals each, cycles 10/20/50/100 ms, a
/// third E2E P01/P05/P22 by attributes; 10 on change, half with 2 repetitions; 10 if active)
/// and DUT (one E2E P01 message every 10 ms).
std::string rest_bus_dbc() {
  std::string bo;
  std::string ba;
  const auto id = [](int i) { return std::to_string(i); };
  const auto message = [&](int number, const std::string& name, bool header) {
    bo += "BO_ " + id(number) + " " + name + ": 8 SIM\n";
    for (int k = 0; k < 4; ++k) {  // behind a 24-bit E2E header, else 16 bits each
      const int start = header ? 24 + 8 * k : 16 * k;
      bo += " SG_ Sig" + id(k) + " : " + id(start) + "|" + (header ? "8" : "16") +
            "@1+ (1,0) [0|0] \"\" DUT\n";
    }
  };
  constexpr std::array<int, 4> kCycles{10, 20, 50, 100};
  for (int i = 0; i < 150; ++i) {
    const int number = 0x100 + i;
    const bool e2e = i % 3 == 0;
    message(number, "Cyc" + id(i), e2e);
    ba += "BA_ \"GenMsgCycleTime\" BO_ " + id(number) + " " + id(kCycles[i % 4]) + ";\n";
    ba += "BA_ \"GenSigStartValue\" SG_ " + id(number) + " Sig1 " + id(i) + ";\n";
    if (!e2e) continue;
    const char* const profile = std::array{"P01", "P05", "P22"}[(i / 3) % 3];
    ba += "BA_ \"E2E_Profile\" BO_ " + id(number) + " \"" + profile + "\";\n";
    ba += "BA_ \"E2E_DataID\" BO_ " + id(number) + " " + id(0x200 + i) + ";\n";
    ba += "BA_ \"E2E_DataIDList\" BO_ " + id(number) +
          " \"1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16\";\n";
  }
  for (int j = 0; j < 10; ++j) {  // on change: Spontaneous, or with 2 repetitions 10 ms apart
    const int number = 0x300 + j;
    message(number, "Chg" + id(j), false);
    ba += "BA_ \"GenMsgSendType\" BO_ " + id(number) + (j % 2 == 0 ? " 1;\n" : " 3;\n");
    if (j % 2 == 0) continue;
    ba += "BA_ \"GenMsgCycleTimeFast\" BO_ " + id(number) + " 10;\n";
    ba += "BA_ \"GenMsgNrOfRepetition\" BO_ " + id(number) + " 2;\n";
  }
  for (int j = 0; j < 10; ++j) {  // if active, every 20 ms; inactive at the start
    const int number = 0x400 + j;
    message(number, "Act" + id(j), false);
    ba += "BA_ \"GenMsgSendType\" BO_ " + id(number) + " 2;\n";
    ba += "BA_ \"GenMsgCycleTime\" BO_ " + id(number) + " 20;\n";
  }
  bo += "BO_ 1280 DutStatus: 8 DUT\n SG_ Value : 16|16@1+ (1,0) [0|0] \"\" SIM\n";
  ba += "BA_ \"GenMsgCycleTime\" BO_ 1280 10;\n";
  ba += "BA_ \"E2E_Profile\" BO_ 1280 \"P01\";\n";
  ba += "BA_ \"E2E_DataID\" BO_ 1280 1280;\n";
  return "BU_: SIM DUT\n" + bo +
         "BA_DEF_ BO_ \"GenMsgSendType\" ENUM \"Cyclic\",\"Spontaneous\",\"CyclicIfActive\","
         "\"SpontaneousWithRepetition\";\n"
         "BA_DEF_ BO_ \"GenMsgCycleTime\" INT 0 65535;\n"
         "BA_DEF_ BO_ \"GenMsgCycleTimeFast\" INT 0 65535;\n"
         "BA_DEF_ BO_ \"GenMsgNrOfRepetition\" INT 0 999;\n"
         "BA_DEF_ BO_ \"E2E_Profile\" STRING ;\n"
         "BA_DEF_ BO_ \"E2E_DataID\" INT 0 65535;\n"
         "BA_DEF_ BO_ \"E2E_DataIDList\" STRING ;\n"
         "BA_DEF_ SG_ \"GenSigStartValue\" INT 0 65535;\n"
         "BA_DEF_ SG_ \"GenSigInactiveValue\" INT 0 65535;\n"
         "BA_DEF_DEF_ \"GenMsgSendType\" \"Cyclic\";\n"
         "BA_DEF_DEF_ \"GenMsgCycleTime\" 0;\n"
         "BA_DEF_DEF_ \"E2E_Profile\" \"\";\n"
         "BA_DEF_DEF_ \"GenSigStartValue\" 0;\n"
         "BA_DEF_DEF_ \"GenSigInactiveValue\" 0;\n" +
         ba;
}

TEST(CanBusBudget, RestBusSimulationAllocatesNothing) {
  CanBusSpec spec;
  spec.name = "rig";
  spec.uri = "virtual:rest_budget";
  spec.database = dbc::parse_dbc(rest_bus_dbc(), "rest_budget.dbc");
  spec.simulate_nodes = {"SIM"};
  spec.dut_nodes = {"DUT"};
  rt::ChannelTable table;
  std::vector<MappingProblem> problems;
  const auto bus = CanBus::create(spec, table, 0.001, 0, problems);
  ASSERT_NE(bus, nullptr) << problems.front().field << ": " << problems.front().message;
  ASSERT_EQ(bus->tx_count(), 170U);
  ASSERT_EQ(bus->rx_count(), 1U);
  table.freeze();
  FrameTap tap(1 << 16);
  bus->set_tap(&tap);
  const auto peer = open_transport("virtual:rest_budget?queue=4096");
  std::vector<rt::ChannelId> changing, activating;
  for (int j = 0; j < 10; ++j) {
    changing.push_back(table.resolve("can.rig.chg" + std::to_string(j) + ".sig0"));
    activating.push_back(table.resolve("can.rig.act" + std::to_string(j) + ".sig2"));
  }
  // The device's frames, made in advance: its 15 P01 counters.
  e2e::ProfileSpec p01{.profile = e2e::Profile::p01, .data_id = 1280};
  const dbc::CompiledMessage dut = dbc::compile(*spec.database.find_message("DutStatus"));
  std::vector<CanFrame> frames(15);
  for (std::uint32_t c = 0; c < 15; ++c) {
    const std::array<double, 1> v{static_cast<double>(c)};
    (void)dbc::encode_frame(dut, v, frames[c]);
    e2e::protect(p01, std::span<std::uint8_t>(frames[c].data.data(), frames[c].length), c);
  }
  std::vector<TimedFrame> sink(512);
  std::uint64_t received = 0;
  std::uint32_t counter = 0;
  const auto tick = [&](std::int64_t k) {
    // The device every 10 ms, silent for 100 ms every 2 s (NODATA), a counter repeated now
    // and then; the rig writes an on-change signal every 37 ms and keeps each if-active
    // message active 100 ms out of 300.
    if (k % 10 == 0 && k % 2000 > 100) {
      if (k % 770 != 0) counter = (counter + 1) % 15;
      (void)peer->send(frames[counter], k);
    }
    if (k % 37 == 0) {
      table.set(changing[static_cast<std::size_t>(k / 37) % 10], static_cast<double>(k % 200));
    }
    for (std::size_t j = 0; j < activating.size(); ++j) {
      table.set(activating[j], (k + static_cast<std::int64_t>(j) * 30) % 300 < 100 ? 1.0 : 0.0);
    }
    bus->read(k, table);
    bus->write(k, table);
    for (;;) {
      const std::size_t n = peer->receive(sink, k);
      received += n;
      if (n < sink.size()) break;
    }
    RecordedFrame recorded;
    while (tap.try_pop(recorded)) {
    }
  };
  for (std::int64_t k = 0; k < 1000; ++k) tick(k);
  const std::uint64_t before = received;
  const std::uint64_t n = hil::testing::allocations_in([&] {
    for (std::int64_t k = 1000; k < 11'000; ++k) tick(k);
  });
  EXPECT_EQ(n, 0U);
  // 10 s of 150 cyclic messages: 100 + 50 + 20 + 10 frames per second each quarter.
  EXPECT_GT(received - before, 150U / 4 * (100 + 50 + 20 + 10) * 10);
  EXPECT_EQ(table.get(table.resolve("can.rig.tx_dropped")), 0.0);
  EXPECT_GT(bus->tx_counters(151).frames.load(), 30U);   // Chg1: changes, with repetitions
  EXPECT_GT(bus->tx_counters(160).frames.load(), 100U);  // Act0: while active
  const MessageCounters& device = bus->rx_counters(0);
  EXPECT_GT(device.frames.load(), 900U);
  EXPECT_GT(device.no_data.load(), 0U);
  EXPECT_GT(device.counter_errors.load(), 0U);
}

}  // namespace
}  // namespace hil::io::can
