// Our candump logs against the tools that read them in the field: can-utils log2asc (Vector
// ASC conversion) and python-can's CanutilsLogReader; and a log python-can wrote, read by us.

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "io/can/trace/candump_log.hpp"
#include "io/can/trace/candump_reader.hpp"
#include "tests/support/run_command.hpp"
#include "tests/support/temp_dir.hpp"

namespace hil::io::can {
namespace {

using config::testing::TempDir;
using testing::have_program;
using testing::run_command;

constexpr const char* kPython = "/usr/bin/python3";

CandumpLine line_at(std::int64_t micros, std::string_view iface, CanFrame frame) {
  return {.time = {.seconds = 1'700'000'000 + micros / 1'000'000,
                   .nanoseconds = static_cast<std::uint32_t>(micros % 1'000'000) * 1000},
          .interface = iface,
          .frame = frame};
}

CanFrame frame_of(std::uint32_t id, std::uint8_t flags, std::vector<std::uint8_t> bytes) {
  CanFrame f{.id = id, .length = static_cast<std::uint8_t>(bytes.size()), .flags = flags};
  for (std::size_t i = 0; i < bytes.size(); ++i) f.data[i] = bytes[i];
  return f;
}

std::string repeated(std::string_view text, int times) {
  std::string out;
  for (int i = 0; i < times; ++i) out += text;
  return out;
}

/// A log with every kind of frame, written with our formatter.
std::string sample_log() {
  std::vector<std::uint8_t> twelve(12);
  for (std::size_t i = 0; i < twelve.size(); ++i) twelve[i] = static_cast<std::uint8_t>(0x11 * i);
  std::vector<std::uint8_t> sixty_four(64, 0x5A);
  CanFrame remote7 = frame_of(0x123, kRemote, {});
  remote7.length = 7;
  const std::vector<CandumpLine> lines{
      line_at(0, "can0", frame_of(0x123, 0, {0xDE, 0xAD, 0xBE, 0xEF})),
      line_at(100, "can0", frame_of(0x1F334455, kExtended, {0x11, 0x22})),
      line_at(200, "can0", frame_of(0x123, kRemote, {})),
      line_at(300, "can0", remote7),
      line_at(400, "can0", frame_of(0x321, kFd | kBrs, twelve)),
      line_at(500, "can0", frame_of(0x321, kFd | kEsi, {0xAA})),
      line_at(600, "can0", frame_of(0x80, kError, {0, 0, 0, 0, 0, 0, 0, 0})),
      line_at(700, "can0", frame_of(0x0ABCDEF, kExtended | kFd, sixty_four)),
  };
  std::string log;
  for (const CandumpLine& l : lines) log += to_candump_line(l) + "\n";
  return log;
}

TEST(CandumpInterop, Log2ascConvertsOurLogFrameByFrame) {
  if (!have_program("log2asc")) GTEST_SKIP() << "can-utils not installed (tools/install-deps.sh)";
  const TempDir dir;
  const auto log = dir.write("can.log", sample_log());
  const auto asc = dir.path() / "out.asc";
  const auto run = run_command("log2asc -I " + log.string() + " -O " + asc.string() + " can0");
  ASSERT_EQ(run.status, 0) << run.output;
  std::ifstream in(asc);
  std::stringstream text;
  text << in.rdbuf();
  const std::string s = text.str();
  EXPECT_NE(s.find("base hex  timestamps absolute"), std::string::npos) << s;
  EXPECT_NE(s.find("0.000000 1  123             Rx   d 4 DE AD BE EF"), std::string::npos) << s;
  EXPECT_NE(s.find("1F334455x       Rx   d 2 11 22"), std::string::npos) << s;
  EXPECT_NE(s.find("0.000200 1  123             Rx   r 0"), std::string::npos) << s;
  EXPECT_NE(s.find("0.000300 1  123             Rx   r 7"), std::string::npos) << s;
  EXPECT_NE(s.find("1 0 9 12 00 11 22 33 44 55 66 77 88 99 AA BB"), std::string::npos) << s;
  EXPECT_NE(s.find("0 1 1  1 AA"), std::string::npos) << s;  // ESI, DLC 1
  EXPECT_NE(s.find("0.000600 1  ErrorFrame"), std::string::npos) << s;
  EXPECT_NE(s.find("ABCDEFx"), std::string::npos) << s;
  EXPECT_NE(s.find("0 0 f 64 " + repeated("5A ", 63) + "5A"), std::string::npos) << s;  // DLC 15
}

TEST(CandumpInterop, PythonCanReadsOurLogAsWeWroteIt) {
  if (run_command(std::string(kPython) + " -c 'import can'").status != 0) {
    GTEST_SKIP() << "python3-can not installed (tools/install-deps.sh)";
  }
  const TempDir dir;
  const auto log = dir.write("can.log", sample_log());
  const auto run =
      run_command(std::string(kPython) +
                  " " HIL_SOURCE_DIR "/tests/io/can/trace/python_can_read.py " + log.string());
  ASSERT_EQ(run.status, 0) << run.output;
  const std::string expected =
      "t=1700000000.000000 can0 123 ext=0 rtr=0 fd=0 brs=0 esi=0 dlc=4 data=DEADBEEF\n"
      "t=1700000000.000100 can0 1F334455 ext=1 rtr=0 fd=0 brs=0 esi=0 dlc=2 data=1122\n"
      "t=1700000000.000200 can0 123 ext=0 rtr=1 fd=0 brs=0 esi=0 dlc=0 data=\n"
      "t=1700000000.000300 can0 123 ext=0 rtr=1 fd=0 brs=0 esi=0 dlc=7 data=\n"
      "t=1700000000.000400 can0 321 ext=0 rtr=0 fd=1 brs=1 esi=0 dlc=12 "
      "data=00112233445566778899AABB\n"
      "t=1700000000.000500 can0 321 ext=0 rtr=0 fd=1 brs=0 esi=1 dlc=1 data=AA\n"
      "t=1700000000.000600 error\n"
      "t=1700000000.000700 can0 ABCDEF ext=1 rtr=0 fd=1 brs=0 esi=0 dlc=64 data=" +
      repeated("5A", 64) + "\n";
  EXPECT_EQ(run.output, expected);
}

TEST(CandumpInterop, WeReadWhatPythonCanWrites) {
  if (run_command(std::string(kPython) + " -c 'import can'").status != 0) {
    GTEST_SKIP() << "python3-can not installed (tools/install-deps.sh)";
  }
  const TempDir dir;
  const auto log = dir.path() / "py.log";
  const auto run =
      run_command(std::string(kPython) +
                  " " HIL_SOURCE_DIR "/tests/io/can/trace/python_can_write.py " + log.string());
  ASSERT_EQ(run.status, 0) << run.output;
  std::ifstream in(log);
  CandumpReader reader(in, "py.log");
  std::vector<std::string> seen;
  for (auto s = reader.next(); s != CandumpReader::Status::end; s = reader.next()) {
    ASSERT_EQ(s, CandumpReader::Status::frame) << reader.describe_bad_line();
    CandumpLine l = reader.line();
    seen.push_back(to_candump_line(l));
  }
  EXPECT_EQ(reader.direction_suffixes(), 4U);
  const std::vector<std::string> expected{
      "(0000000001.500000) can0 123#DEAD R",
      "(0000000002.250000) can1 1F334455#010203 T",
      "(0000000003.000000) can0 321##1000102030405060708090A0B R",
      "(0000000004.000000) can0 7FF#R R",
  };
  EXPECT_EQ(seen, expected);
}

}  // namespace
}  // namespace hil::io::can
