// ASC files written by the tools that write them in the field, read by our ASC reader:
// can-utils log2asc (plain and -f, -r, -4) converting a candump log, and python-can's
// ASCWriter. Skipped where the tool is missing (tools/install-deps.sh installs both).

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "io/can/trace/trace_loader.hpp"
#include "tests/support/frame_helpers.hpp"
#include "tests/support/run_command.hpp"
#include "tests/support/temp_dir.hpp"

namespace hil::io::can {
namespace {

using config::testing::TempDir;
using testing::have_program;
using testing::run_command;

/// Every kind of frame log2asc converts, on two interfaces, with direction suffixes. (log2asc
/// drops an error frame's class: ours is the one asc2log makes. can-utils 2020.11 log2asc
/// reads 9 decimals as microseconds, so this log has 6.)
constexpr const char* kLog =
    "(1700000000.000000) can0 123#DEADBEEF\n"
    "(1700000000.000100) can0 1F334455#1122 R\n"
    "(1700000000.000200) can0 123#R\n"
    "(1700000000.000300) can1 123#R7 T\n"
    "(1700000000.000400) can1 321##100112233445566778899AABB\n"
    "(1700000000.000500) can0 321##2AA\n"
    "(1700000000.000600) can0 20000080#0000000000000000\n"
    "(1700000000.000700) can1 00ABCDEF##0"
    "000102030405060708090A0B0C0D0E0F101112131415161718191A1B1C1D1E1F"
    "202122232425262728292A2B2C2D2E2F303132333435363738393A3B3C3D3E3F\n"
    "(1700000000.001700) can1 7FF#\n";

constexpr std::size_t kErrorFrameIndex = 6;

void expect_same_frames(const TraceLoad& asc, const TraceLoad& log, bool times, bool fd_format) {
  ASSERT_EQ(asc.trace.size(), log.trace.size());
  EXPECT_EQ(asc.trace.interfaces(), log.trace.interfaces());
  for (std::size_t i = 0; i < log.trace.size(); ++i) {
    CanFrame expected = log.trace.frame(i);
    // log2asc -f writes an error frame as a CANFD line of a classic frame with its id and
    // data, and no error flag (ASC has none there): it comes back as that data frame.
    if (fd_format && i == kErrorFrameIndex) expected.flags = 0;
    EXPECT_EQ(asc.trace.frame(i), expected) << "frame " << i;
    EXPECT_EQ(asc.trace.record(i).interface, log.trace.record(i).interface) << i;
    if (times) {
      EXPECT_EQ(asc.trace.record(i).time_ns, log.trace.record(i).time_ns) << i;
    }
  }
}

class Log2asc : public ::testing::TestWithParam<const char*> {};

TEST_P(Log2asc, TheAscOfACandumpLogHoldsTheSameFrames) {
  if (!have_program("log2asc")) GTEST_SKIP() << "can-utils not installed (tools/install-deps.sh)";
  const TempDir dir;
  const auto log = dir.write("can.log", kLog);
  const auto asc = dir.path() / "can.asc";
  const std::string options = GetParam();
  const auto run = run_command("log2asc " + options + " -I " + log.string() + " -O " +
                               asc.string() + " can0 can1");
  ASSERT_EQ(run.status, 0) << run.output;
  const TraceLoad from_asc = load_trace(asc);
  EXPECT_EQ(from_asc.format, TraceFormat::asc);
  // -r drops the DLC of remote requests: "123#R7" comes back as "123#R".
  if (options == "-r") return;
  const TraceLoad from_log = load_trace(log);
  ASSERT_TRUE(from_log.trace.frame(kErrorFrameIndex).error());
  expect_same_frames(from_asc, from_log, options != "-4", options == "-f");
}

INSTANTIATE_TEST_SUITE_P(Options, Log2asc, ::testing::Values("", "-f", "-4", "-n", "-r"));

TEST(PythonCanAsc, WeReadWhatASCWriterWrites) {
  if (run_command("/usr/bin/python3 -c 'import can'").status != 0) {
    GTEST_SKIP() << "python3-can not installed (tools/install-deps.sh)";
  }
  const TempDir dir;
  const auto asc = dir.path() / "py.asc";
  const auto run = run_command("/usr/bin/python3 " HIL_SOURCE_DIR
                               "/tests/io/can/trace/python_can_write_asc.py " +
                               asc.string());
  ASSERT_EQ(run.status, 0) << run.output;
  const TraceLoad load = load_trace(asc);
  ASSERT_EQ(load.trace.size(), 6U);
  EXPECT_EQ(load.events, 1U);  // "Start of measurement"
  const Trace& t = load.trace;
  EXPECT_EQ(t.interfaces(), (std::vector<std::string>{"can0", "can1"}));
  EXPECT_EQ(t.frame(0), test::make_frame(0x123, {0xDE, 0xAD}));
  EXPECT_EQ(t.frame(1), test::make_frame(0x1F334455, {1, 2, 3}, kExtended));
  EXPECT_EQ(t.record(1).interface, 1);
  EXPECT_EQ(t.frame(2), test::make_fd(0x321, 12, kBrs));
  EXPECT_EQ(t.frame(3), test::make_remote(0x7FF, 5));
  EXPECT_EQ(t.frame(4), test::make_fd(0xABCDE, 64, kEsi | kExtended));
  EXPECT_TRUE(t.frame(5).error());
  EXPECT_EQ(t.record(1).time_ns, 250'000'000);
  EXPECT_EQ(t.record(5).time_ns, 1'500'000'000);
}

}  // namespace
}  // namespace hil::io::can
