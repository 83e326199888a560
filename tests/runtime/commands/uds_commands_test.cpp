// UDS requests as commands (runtime/commands): the text commands.log and the API use
// (parse_uds_request, uds_request_text), CommandQueue::uds() handing the bytes to the rig's
// tester at the tick it applies them, and RecordedCommands reading "uds" lines back — and
// refusing what is not a request, or a request for a rig without a tester, naming the line.

#include <gtest/gtest.h>

#include <array>
#include <memory>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "config/diagnostics_spec.hpp"
#include "io/can/dbc/dbc_parser.hpp"
#include "io/can/mapping/can_bus.hpp"
#include "io/can/transport/transport_factory.hpp"
#include "runtime/commands/command_queue.hpp"
#include "runtime/commands/recorded_commands.hpp"
#include "runtime/diag/diag_tester.hpp"
#include "runtime/faults/fault_engine.hpp"

namespace hil::runtime {
namespace {

using Bytes = std::vector<std::uint8_t>;

/// `what()` of the std::invalid_argument `f` throws ("" if none).
template <class F>
std::string refusal(F&& f) {
  try {
    f();
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

TEST(UdsRequestText, ParsesHexWithSpacesAndTheFunctionalPrefix) {
  UdsRequestText r = parse_uds_request("22F190");
  EXPECT_EQ(r.bytes, (Bytes{0x22, 0xF1, 0x90}));
  EXPECT_FALSE(r.functional);
  r = parse_uds_request("22 f1 90");
  EXPECT_EQ(r.bytes, (Bytes{0x22, 0xF1, 0x90}));
  r = parse_uds_request("functional 3E00");
  EXPECT_EQ(r.bytes, (Bytes{0x3E, 0x00}));
  EXPECT_TRUE(r.functional);
  r = parse_uds_request("functional 22 F1 90 F1 8C F1 87");  // 7 bytes: one frame
  EXPECT_EQ(r.bytes.size(), 7U);
  EXPECT_TRUE(r.functional);
  EXPECT_EQ(parse_uds_request(std::string(2 * 4095, 'a')).bytes, Bytes(4095, 0xAA));
}

TEST(UdsRequestText, RefusesWhatIsNotARequest) {
  const std::vector<std::pair<std::string, std::string>> cases{
      {"22F19", "odd number of hex digits"},
      {"22G190", "'G' is not a hex digit"},
      {"22\tF1", "is not a hex digit"},
      {"", "at least its service id"},
      {"   ", "at least its service id"},
      {"functional ", "at least its service id"},
      {std::string(2 * 4096, '1'), "4096 bytes: ISO-TP carries at most 4095"},
      {"functional 2201020304050607", "functional UDS request of 8 bytes"},
  };
  for (const auto& [text, why] : cases) {
    const std::string e = refusal([&] { (void)parse_uds_request(text); });
    EXPECT_NE(e.find(why), std::string::npos) << "\"" << text.substr(0, 40) << "\" → " << e;
  }
}

TEST(UdsRequestText, TextRoundTrips) {
  EXPECT_EQ(uds_request_text(Bytes{0x22, 0xF1, 0x90}, false), "22F190");
  EXPECT_EQ(uds_request_text(Bytes{0x3E, 0x00}, true), "functional 3E00");
  EXPECT_EQ(uds_request_text(Bytes{0x0A, 0xB0}, false), "0AB0") << "two upper-case digits each";
  Bytes all(256);
  for (std::size_t i = 0; i < all.size(); ++i) all[i] = static_cast<std::uint8_t>(i);
  const UdsRequestText back = parse_uds_request(uds_request_text(all, false));
  EXPECT_EQ(back.bytes, all);
  EXPECT_FALSE(back.functional);
  const UdsRequestText f = parse_uds_request(uds_request_text(Bytes{0x10, 0x83}, true));
  EXPECT_TRUE(f.functional);
  EXPECT_EQ(f.bytes, (Bytes{0x10, 0x83}));
}

/// A rig's parts for commands: a bus on a virtual bus with no mapped messages, its tester
/// (1 ms ticks, no DTC reads), a fault engine; a peer endpoint sees what the tester sends.
class Parts {
 public:
  explicit Parts(const std::string& uri) {
    spec_.name = "ecu";
    spec_.uri = uri;
    spec_.database = io::can::dbc::load_dbc(HIL_SOURCE_DIR "/tests/io/data/mapping.dbc");
    specs.push_back(spec_);
    std::vector<io::can::MappingProblem> problems;
    buses.push_back(io::can::CanBus::create(spec_, table, 1e-3, 0, problems));
    if (buses[0] == nullptr) throw std::runtime_error("no bus");
    config::DiagnosticsSpec d;
    d.read_dtcs_every_s = 0;
    tester = std::make_unique<DiagTester>(d, *buses[0], table, 1'000'000);
    faults = std::make_unique<FaultEngine>(
        std::vector<config::FaultSpec>{},
        FaultTargets{.table = table, .buses = buses, .bus_specs = specs, .period = 1'000'000}, 1);
    table.freeze();
    peer = io::can::open_transport(uri);
  }
  ~Parts() { tester.reset(); }

  /// The tester's stage and the bus's write at tick `k`; the frames the peer got then.
  std::vector<io::can::CanFrame> tick(std::int64_t k, rt::Stage* commands = nullptr) {
    const rt::TickContext c{.tick = k, .time = k * 1'000'000, .dt = 1'000'000, .dt_s = 1e-3};
    buses[0]->read(k, table);
    if (commands != nullptr) commands->run(c);
    tester->run(c);
    buses[0]->write(k, table);
    std::array<io::can::TimedFrame, 16> in{};
    std::vector<io::can::CanFrame> out;
    const std::size_t n = peer->receive(in, k);
    for (std::size_t i = 0; i < n; ++i) out.push_back(in[i].frame);
    return out;
  }

  rt::ChannelTable table;
  std::vector<io::can::CanBusSpec> specs;
  std::vector<std::unique_ptr<io::can::CanBus>> buses;
  std::unique_ptr<DiagTester> tester;
  std::unique_ptr<FaultEngine> faults;
  std::unique_ptr<io::can::Transport> peer;

 private:
  io::can::CanBusSpec spec_;
};

io::can::CanFrame frame_of(std::uint32_t id, std::initializer_list<std::uint8_t> bytes) {
  io::can::CanFrame f;
  f.id = id;
  for (const std::uint8_t b : bytes) f.data[f.length++] = b;
  while (f.length < 8) f.data[f.length++] = 0xCC;
  return f;
}

// The queue keeps a request's bytes until the tick applies it; the tester sends it then (and
// the next when the first is done: here unanswered, at P2 = 1000 ticks).
TEST(UdsCommands, QueueHandsTheRequestToTheTesterAtItsTick) {
  Parts p("virtual:uds_commands_queue");
  CommandQueue q(p.table, p.specs, *p.faults, p.tester.get(), 2);
  const std::uint64_t a = q.uds("22 F1 90");
  const std::uint64_t b = q.uds("functional 3e00");
  EXPECT_NE(refusal([&] { (void)q.uds("3E00"); }).find("queue is full"), std::string::npos);
  EXPECT_NE(refusal([&] { (void)q.uds("3E0"); }).find("odd number"), std::string::npos);
  EXPECT_TRUE(p.tick(0).empty()) << "not applied before its tick";
  const std::vector<io::can::CanFrame> sent = p.tick(1, &q.stage());
  ASSERT_EQ(sent.size(), 1U);
  EXPECT_EQ(sent[0], frame_of(0x7E0, {0x03, 0x22, 0xF1, 0x90}));
  const std::vector<AppliedCommand> applied = q.take_applied();
  ASSERT_EQ(applied.size(), 2U);
  EXPECT_EQ(applied[0].id, a);
  EXPECT_EQ(applied[0].tick, 1);
  EXPECT_TRUE(applied[0].ok);
  EXPECT_EQ(applied[0].line, "uds 22F190");
  EXPECT_EQ(applied[1].id, b);
  EXPECT_EQ(applied[1].line, "uds functional 3E00");
  for (std::int64_t k = 2; k < 1'001; ++k) ASSERT_TRUE(p.tick(k, &q.stage()).empty()) << k;
  const std::vector<io::can::CanFrame> next = p.tick(1'001, &q.stage());
  ASSERT_EQ(next.size(), 1U);
  EXPECT_EQ(next[0], frame_of(0x7DF, {0x02, 0x3E, 0x00}));
  EXPECT_NE(q.uds("3E00"), 0U) << "room again once applied";
  const std::vector<UdsResult> results = p.tester->take_results();
  ASSERT_EQ(results.size(), 1U);
  EXPECT_EQ(results[0].command, a);
  EXPECT_TRUE(results[0].timed_out);
}

TEST(UdsCommands, QueueRefusesUdsWithoutATester) {
  Parts p("virtual:uds_commands_none");
  CommandQueue q(p.table, p.specs, *p.faults);
  EXPECT_NE(refusal([&] { (void)q.uds("22F190"); }).find("no UDS tester"), std::string::npos);
  EXPECT_TRUE(q.take_applied().empty());
}

// commands.log's "uds" lines go to the tester at their ticks, in order.
TEST(UdsCommands, RecordedLinesAreSentAtTheirTicks) {
  Parts p("virtual:uds_commands_recorded");
  RecordedCommands recorded("3 marker reading the VIN\n5 uds 22F190\n5 uds functional 3E00\n",
                            p.table, p.specs, *p.faults, {}, p.tester.get());
  for (std::int64_t k = 0; k < 5; ++k) ASSERT_TRUE(p.tick(k, &recorded).empty()) << k;
  const std::vector<io::can::CanFrame> sent = p.tick(5, &recorded);
  ASSERT_EQ(sent.size(), 1U);
  EXPECT_EQ(sent[0], frame_of(0x7E0, {0x03, 0x22, 0xF1, 0x90}));
  for (std::int64_t k = 6; k < 1'005; ++k) ASSERT_TRUE(p.tick(k, &recorded).empty()) << k;
  const std::vector<io::can::CanFrame> next = p.tick(1'005, &recorded);
  ASSERT_EQ(next.size(), 1U);
  EXPECT_EQ(next[0], frame_of(0x7DF, {0x02, 0x3E, 0x00}));
}

TEST(UdsCommands, RecordedLinesRefusedNameTheLine) {
  Parts p("virtual:uds_commands_bad");
  const std::vector<std::pair<std::string, std::string>> cases{
      {"0 uds 22F19", "commands.log:1: UDS request \"22F19\": an odd number of hex digits"},
      {"0 marker x\n1 uds 22X190", "commands.log:2: UDS request \"22X190\": 'X' is not a hex"},
      {"0 uds", "commands.log:1: a UDS request needs at least its service id: 0 uds"},
      {"0 uds " + std::string(2 * 4096, '2'), "commands.log:1: UDS request of 4096 bytes"},
      {"0 uds functional 2201020304050607",
       "commands.log:1: functional UDS request of 8 bytes: a functional request is one frame"},
      {"0 udsx 22F190", "commands.log:1: expected write, release, fault, clear, marker or uds"},
  };
  for (const auto& [log, why] : cases) {
    const std::string e =
        refusal([&] { RecordedCommands r(log, p.table, p.specs, *p.faults, {}, p.tester.get()); });
    EXPECT_NE(e.find(why), std::string::npos) << log.substr(0, 60) << " → " << e;
  }
  // a rig without diagnostics: no tester for the line
  const std::string e = refusal(
      [&] { RecordedCommands r("0 marker x\n12 uds 22F190\n", p.table, p.specs, *p.faults); });
  EXPECT_NE(e.find("commands.log:2: a UDS request, but the rig has no diagnostics block: 12 uds "
                   "22F190"),
            std::string::npos)
      << e;
}

}  // namespace
}  // namespace hil::runtime
