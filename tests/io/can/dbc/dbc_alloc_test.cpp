// The RT path of io/can allocates nothing: compiled DBC encode/decode (signals, messages with
// multiplexing, frames, lookup by id) and candump line parsing/formatting. This binary
// replaces operator new to count allocations (tests/support/allocation_counter.hpp).

#include <gtest/gtest.h>

#include <array>
#include <vector>

#include "io/can/dbc/dbc_codec.hpp"
#include "io/can/dbc/dbc_parser.hpp"
#include "io/can/trace/candump_log.hpp"
#include "tests/support/allocation_counter.hpp"

namespace hil::io::can {
namespace {

using hil::testing::allocation_count;

TEST(IoRtAllocations, CompiledDbcEncodeAndDecodeAllocateNothing) {
  // Setup: parse and compile (allocates), pre-size every buffer.
  const dbc::Database db = dbc::load_dbc(HIL_SOURCE_DIR "/tests/io/data/vehicle.dbc");
  const dbc::CompiledDatabase compiled(db);
  std::array<double, 8> physical{};
  std::array<dbc::SignalValue, 8> values{};
  std::array<std::uint8_t, kMaxFdLength> payload{};
  CanFrame frame;
  double sink = 0.0;
  std::size_t present = 0;

  const std::uint64_t before = allocation_count();
  for (int i = 0; i < 1000; ++i) {
    for (const dbc::CompiledMessage& m : compiled.messages()) {
      const std::span<const double> in(physical.data(), m.signals.size());
      const std::span<dbc::SignalValue> out(values.data(), m.signals.size());
      for (std::size_t s = 0; s < m.signals.size(); ++s)
        physical[s] = (i % 7) + 0.5 * static_cast<double>(s);
      (void)dbc::encode_frame(m, in, frame);
      present += dbc::decode_message(m, frame.payload(), out).present;
      (void)dbc::encode_message(m, in, payload);
      for (const dbc::CompiledSignal& s : m.signals) {
        double v = 0.0;
        std::int64_t raw = 0;
        (void)dbc::decode_signal(s, payload, v);
        (void)dbc::decode_raw(s, payload, raw);
        (void)dbc::encode_signal(s, v + 1.0, payload);
        sink += v + static_cast<double>(raw);
      }
    }
    sink += compiled.find(0x18FEF1FE, true) + compiled.find(0x300, false);
  }
  const std::uint64_t during = allocation_count() - before;
  EXPECT_EQ(during, 0U);
  EXPECT_GT(present, 0U);  // the loop did decode something
  EXPECT_NE(sink, 0.0);
  // The counter works: a heap allocation here is seen.
  const std::uint64_t control = allocation_count();
  const auto* probe = new std::vector<int>(16);
  EXPECT_GE(allocation_count() - control, 2U);
  delete probe;
}

TEST(IoRtAllocations, CandumpLineParseAndFormatAllocateNothing) {
  const std::array<const char*, 4> lines{
      "(1700000000.000100) can0 123#DEADBEEF",
      "(1700000000.000200123) can1 1F334455##1"
      "00112233445566778899AABB R",
      "(0000000001.500000) can0 123#R7 T",
      "(1.000000) can0 not-a-frame",
  };
  std::array<char, kMaxCandumpLineLength> buffer{};
  std::size_t written = 0;
  std::size_t parsed = 0;
  const std::uint64_t before = allocation_count();
  for (int i = 0; i < 1000; ++i) {
    for (const char* text : lines) {
      const CandumpParseResult r = parse_candump_line(text);
      if (r.ok) {
        ++parsed;
        written += format_candump_line(r.line, buffer);
      }
    }
  }
  EXPECT_EQ(allocation_count() - before, 0U);
  EXPECT_EQ(parsed, 3000U);
  EXPECT_GT(written, 0U);
}

}  // namespace
}  // namespace hil::io::can
