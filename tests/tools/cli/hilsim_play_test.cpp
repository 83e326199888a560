// `hilsim play` as a user runs it: onto cannelloni UDP receivers on loopback (decoded with
// io/can/transport/cannelloni_codec.hpp), with bad lines, --lenient, --ids, --map, --loop, --speed,
// ASC input converted by can-utils log2asc, BLF written by python-can, Ctrl-C and --json.

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <array>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "io/can/trace/trace_loader.hpp"
#include "tests/support/cannelloni_sink.hpp"
#include "tests/support/run_command.hpp"
#include "tests/support/sample_log.hpp"
#include "tests/support/temp_dir.hpp"

namespace hil::tools {
namespace {

using config::testing::TempDir;
using io::can::CanFrame;
using io::can::test::CannelloniSink;
using io::testing::CommandResult;
using io::testing::sample_log;

CommandResult hilsim(const std::string& args) {
  return io::testing::run_command(std::string(HILSIM_BINARY) + " " + args);
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

/// The frames of a log file, read with our loader, of `interface` (or all).
std::vector<CanFrame> frames_of(const std::filesystem::path& log,
                                const std::string& interface = {}) {
  const io::can::TraceLoad load = io::can::load_trace(log);
  std::vector<CanFrame> out;
  for (std::size_t i = 0; i < load.trace.size(); ++i) {
    const std::string& iface = load.trace.interfaces()[load.trace.record(i).interface];
    if (interface.empty() || iface == interface) out.push_back(load.trace.frame(i));
  }
  return out;
}

TEST(HilsimPlay, HelpShowsTheOptionsAndExamples) {
  const CommandResult run = hilsim("play --help");
  ASSERT_EQ(run.status, 0) << run.output;
  for (const char* part : {"--to", "--map", "--loop", "--speed", "--ids", "--lenient", "--json",
                           "Examples:", "hilsim play", "Exit status"}) {
    EXPECT_TRUE(contains(run.output, part)) << part << "\n" << run.output;
  }
}

TEST(HilsimPlay, TheUdpReceiverGetsEveryFrameWithItsIdDataFlagsAndOrder) {
  const TempDir dir;
  const auto log = dir.write("can.log", sample_log());
  CannelloniSink sink;
  const CommandResult run = hilsim("play " + log.string() + " --to '" + sink.uri() + "' -q");
  sink.stop();
  ASSERT_EQ(run.status, 0) << run.output;
  EXPECT_TRUE(contains(run.output, "sent 60 frames")) << run.output;
  const std::vector<CanFrame> expected = frames_of(log);
  ASSERT_EQ(expected.size(), 60U);
  EXPECT_EQ(sink.frames_only(), expected);
  EXPECT_EQ(sink.bad_packets(), 0U);
}

TEST(HilsimPlay, ABadLineStopsThePlayBeforeAnythingIsSent) {
  const TempDir dir;
  const auto log =
      dir.write("bad.log", sample_log(10) + "(1700000000.020000) can0 123#ABC\n" + sample_log(5));
  CannelloniSink sink;
  const CommandResult run = hilsim("play " + log.string() + " --to '" + sink.uri() + "' -q");
  sink.stop();
  EXPECT_EQ(run.status, 1);
  EXPECT_TRUE(contains(run.output, log.string() + ":11:33: expected two hex digits per data byte"))
      << run.output;
  EXPECT_TRUE(sink.frames().empty());
}

TEST(HilsimPlay, LenientSkipsBadLinesAndCountsThem) {
  const TempDir dir;
  const auto log =
      dir.write("bad.log", sample_log(10) + "(1700000000.020000) can0 123#ABC\n" + "nonsense\n");
  CannelloniSink sink;
  const CommandResult run =
      hilsim("play " + log.string() + " --lenient --to '" + sink.uri() + "' -q");
  sink.stop();
  ASSERT_EQ(run.status, 0) << run.output;
  EXPECT_TRUE(contains(run.output, "skipped 2 malformed lines (--lenient)")) << run.output;
  EXPECT_TRUE(contains(run.output, "bad.log:11:33")) << run.output;  // the warning names them
  EXPECT_EQ(sink.frames().size(), 10U);
}

TEST(HilsimPlay, IdsFilterPassesOnlyMatchingFrames) {
  const TempDir dir;
  const auto log = dir.write("can.log", sample_log());
  CannelloniSink sink;
  const CommandResult run = hilsim("play " + log.string() +
                                   " --ids 123:7FF,00ABCDEF:1FFFFFFF --to '" + sink.uri() + "' -q");
  sink.stop();
  ASSERT_EQ(run.status, 0) << run.output;
  std::vector<CanFrame> expected;
  for (const CanFrame& f : frames_of(log)) {
    if (!f.error() && (f.id == 0x123 || f.id == 0xABCDEF)) expected.push_back(f);
  }
  ASSERT_FALSE(expected.empty());
  EXPECT_EQ(sink.frames_only(), expected);
  EXPECT_TRUE(contains(run.output,
                       "filtered out " + std::to_string(60 - expected.size()) + " frames (--ids)"))
      << run.output;
}

TEST(HilsimPlay, MapRoutesInterfacesToTwoDestinationsAndCountsTheUnrouted) {
  const TempDir dir;
  std::string text = sample_log(30);
  text += "(1700000000.040000) vcan7 7FF#01\n(1700000000.041000) vcan7 7FF#02\n";
  const auto log = dir.write("can.log", text);
  CannelloniSink a;
  CannelloniSink b;
  const CommandResult run = hilsim("play " + log.string() + " --map 'can0=" + a.uri() +
                                   "' --map 'can1=" + b.uri() + "' -q");
  a.stop();
  b.stop();
  ASSERT_EQ(run.status, 0) << run.output;
  EXPECT_EQ(a.frames_only(), frames_of(log, "can0"));
  EXPECT_EQ(b.frames_only(), frames_of(log, "can1"));
  EXPECT_EQ(b.frames().size(), 10U);
  EXPECT_TRUE(contains(run.output, "skipped 2 frames of interfaces with no destination (vcan7)"))
      << run.output;
}

TEST(HilsimPlay, AnAscFileConvertedByLog2ascPlaysTheSameFramesAsTheLog) {
  if (!io::testing::have_program("log2asc")) GTEST_SKIP() << "can-utils not installed";
  const TempDir dir;
  const auto log = dir.write("can.log", sample_log());
  const auto asc = dir.path() / "can.asc";
  const auto convert =
      io::testing::run_command("log2asc -I " + log.string() + " -O " + asc.string() + " can0 can1");
  ASSERT_EQ(convert.status, 0) << convert.output;
  CannelloniSink from_log;
  CannelloniSink from_asc;
  const CommandResult a = hilsim("play " + log.string() + " --to '" + from_log.uri() + "' -q");
  const CommandResult b = hilsim("play " + asc.string() + " --to '" + from_asc.uri() + "' -q");
  from_log.stop();
  from_asc.stop();
  ASSERT_EQ(a.status, 0) << a.output;
  ASSERT_EQ(b.status, 0) << b.output;
  EXPECT_EQ(from_log.frames().size(), 60U);
  EXPECT_EQ(from_asc.frames_only(), from_log.frames_only());
}

TEST(HilsimPlay, ABlfWrittenByPythonCanPlaysTheSameFramesAtTheSameTimesAsItsLog) {
  if (io::testing::run_command("/usr/bin/python3 -c 'import can'").status != 0) {
    GTEST_SKIP() << "python3-can not installed (tools/install-deps.sh)";
  }
  const TempDir dir;
  const auto log = dir.write("can.log", sample_log());
  const auto blf = dir.path() / "can.blf";
  // Containers of 300 bytes: several, with frames split across them
  const auto convert = io::testing::run_command("/usr/bin/python3 " HIL_SOURCE_DIR
                                                "/tests/io/can/trace/python_can_write_blf.py " +
                                                log.string() + " " + blf.string() + " 300");
  ASSERT_EQ(convert.status, 0) << convert.output;
  CannelloniSink from_log;
  CannelloniSink from_blf;
  const CommandResult a = hilsim("play " + log.string() + " --to '" + from_log.uri() + "' -q");
  const CommandResult b = hilsim("play " + blf.string() + " --to '" + from_blf.uri() + "'");
  from_log.stop();
  from_blf.stop();
  ASSERT_EQ(a.status, 0) << a.output;
  ASSERT_EQ(b.status, 0) << b.output;
  EXPECT_TRUE(contains(b.output, "(blf) 60 frames on can0, can1")) << b.output;
  EXPECT_EQ(from_log.frames().size(), 60U);
  EXPECT_EQ(from_blf.frames_only(), from_log.frames_only());
  // Timing: the log spans 59 ms; both plays keep it (arrival times, so a few ms of jitter)
  const auto span_ms = [](const CannelloniSink& sink) {
    const auto& got = sink.frames();
    return static_cast<double>(got.back().timestamp_ns - got.front().timestamp_ns) / 1e6;
  };
  EXPECT_NEAR(span_ms(from_blf), 59.0, 5.0);
  EXPECT_NEAR(span_ms(from_blf), span_ms(from_log), 5.0);
}

TEST(HilsimPlay, LoopsRepeatTheLogAndJsonHasTheFigures) {
  const TempDir dir;
  const auto log = dir.write("can.log", sample_log(20));
  const auto json_path = dir.path() / "play.json";
  CannelloniSink sink;
  const CommandResult run = hilsim("play " + log.string() + " --loop 3 --loop-gap 5ms --to '" +
                                   sink.uri() + "' -q --json " + json_path.string());
  sink.stop();
  ASSERT_EQ(run.status, 0) << run.output;
  EXPECT_EQ(sink.frames().size(), 60U);
  std::ifstream in(json_path);
  const nlohmann::json j = nlohmann::json::parse(in);
  EXPECT_EQ(j["frames_sent"], 60);
  EXPECT_EQ(j["loops_completed"], 3);
  EXPECT_EQ(j["stopped"], false);
  EXPECT_TRUE(j["lateness_us"]["p99"].is_number());
  EXPECT_TRUE(j["duration_error_us"].is_number());
  // 3 loops of 19 ms + 2 gaps of 5 ms: the last frame 67 ms after the first (59 ms with the
  // default gap, the median of 1 ms).
  const auto& got = sink.frames();
  const double span_ms =
      static_cast<double>(got.back().timestamp_ns - got.front().timestamp_ns) / 1e6;
  EXPECT_GT(span_ms, 63.0);
}

TEST(HilsimPlay, SpeedMaxDoesNotWaitForTheLog) {
  const TempDir dir;
  std::string log;
  for (int i = 0; i < 100; ++i)
    log += "(17000" + std::to_string(10000 + i) + ".000000) can0 123#01\n";
  const auto path = dir.write("slow.log", log);  // 99 s of log
  CannelloniSink sink;
  const auto started = std::chrono::steady_clock::now();
  const CommandResult run =
      hilsim("play " + path.string() + " --speed max --to '" + sink.uri() + "' -q");
  const auto took = std::chrono::steady_clock::now() - started;
  sink.stop();
  ASSERT_EQ(run.status, 0) << run.output;
  EXPECT_EQ(sink.frames().size(), 100U);
  EXPECT_LT(took, std::chrono::seconds(20));
  EXPECT_TRUE(contains(run.output, "speed max:")) << run.output;
}

TEST(HilsimPlay, CtrlCStopsCleanlyWithTheSummary) {
  if (!io::testing::have_program("timeout")) GTEST_SKIP() << "coreutils timeout missing";
  const TempDir dir;
  std::string log;
  for (int i = 0; i < 100; ++i)
    log += "(17000" + std::to_string(10000 + i) + ".000000) can0 123#01\n";
  const auto path = dir.write("slow.log", log);  // one frame a second
  CannelloniSink sink;
  const CommandResult run = io::testing::run_command(
      "timeout --preserve-status -s INT 2.5 " + std::string(HILSIM_BINARY) + " play " +
      path.string() + " --loop 0 --to '" + sink.uri() + "' -q");
  sink.stop();
  EXPECT_EQ(run.status, 0) << run.output;
  EXPECT_TRUE(contains(run.output, "stopped by a signal: sent 3 frames")) << run.output;
  EXPECT_TRUE(contains(run.output, "lateness p50")) << run.output;
  EXPECT_EQ(sink.frames().size(), 3U);
}

TEST(HilsimPlay, OptionErrorsAreNamed) {
  const TempDir dir;
  const auto log = dir.write("can.log", sample_log(3));
  CommandResult run = hilsim("play " + log.string());
  EXPECT_EQ(run.status, 1);
  EXPECT_TRUE(contains(run.output, "nothing to send to")) << run.output;
  run = hilsim("play " + log.string() + " --to virtual:x --ids 12G:7FF");
  EXPECT_NE(run.status, 0);
  EXPECT_TRUE(contains(run.output, "the ID is not 1-8 hex digits")) << run.output;
  run = hilsim("play " + log.string() + " --to virtual:x --speed fast");
  EXPECT_NE(run.status, 0);
  EXPECT_TRUE(contains(run.output, "'fast' is not a speed")) << run.output;
  run = hilsim("play " + log.string() + " --to nope:x");
  EXPECT_EQ(run.status, 1);
  EXPECT_TRUE(contains(run.output, "nope:x")) << run.output;
  run = hilsim("play " + log.string() + " --map can0 --to virtual:x");
  EXPECT_EQ(run.status, 1);
  EXPECT_TRUE(contains(run.output, "expected IFACE=URI")) << run.output;
}

}  // namespace
}  // namespace hil::tools
