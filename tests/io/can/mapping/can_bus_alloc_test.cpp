// The mapped bus on the RT path (DESIGN.md §5): read() and write() — draining, checking,
// decoding, timeouts, safe state, encoding with counter and CRC, sending — allocate nothing.

#include <gtest/gtest.h>

#include <vector>

#include "io/can/dbc/dbc_codec.hpp"
#include "io/can/dbc/dbc_parser.hpp"
#include "io/can/mapping/can_bus.hpp"
#include "io/can/mapping/e2e.hpp"
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

}  // namespace
}  // namespace hil::io::can
