// Loading whole logs before a play: candump and ASC, format detection, strict and lenient
// handling of bad lines, interfaces, times relative to the first frame, the compact storage.

#include "io/can/trace/trace_loader.hpp"

#include <gtest/gtest.h>

#include <sstream>
#include <string>

#include "tests/support/frame_helpers.hpp"
#include "tests/support/temp_dir.hpp"

namespace hil::io::can {
namespace {

using config::testing::TempDir;
using test::make_fd;
using test::make_frame;
using test::make_remote;

constexpr const char* kCandump =
    "(1700000000.000000) can0 123#DEADBEEF\n"
    "(1700000000.001000) can1 1F334455#1122 R\n"
    "(1700000000.002000000) can0 321##1"
    "00112233445566778899AABB T\n"
    "\n"
    "(1700000000.003000) can0 123#R7\n";

std::string message_of(const std::function<void()>& body) {
  try {
    body();
  } catch (const std::runtime_error& e) {
    return e.what();
  }
  return "no error";
}

TEST(TraceLoader, ReadsACandumpLogWithTimesSinceTheFirstFrame) {
  const TempDir dir;
  const TraceLoad load = load_trace(dir.write("can.log", kCandump));
  EXPECT_EQ(load.format, TraceFormat::candump);
  const Trace& t = load.trace;
  ASSERT_EQ(t.size(), 4U);
  EXPECT_EQ(t.interfaces(), (std::vector<std::string>{"can0", "can1"}));
  EXPECT_EQ(t.frames_per_interface(), (std::vector<std::size_t>{3, 1}));
  EXPECT_EQ(t.record(0).time_ns, 0);
  EXPECT_EQ(t.record(1).time_ns, 1'000'000);
  EXPECT_EQ(t.record(2).time_ns, 2'000'000);  // 9 decimals
  EXPECT_EQ(t.record(1).interface, 1);
  EXPECT_EQ(t.frame(0), make_frame(0x123, {0xDE, 0xAD, 0xBE, 0xEF}));
  EXPECT_EQ(t.frame(1), make_frame(0x1F334455, {0x11, 0x22}, kExtended));
  CanFrame fd = make_fd(0x321, 12, kBrs);
  for (std::size_t i = 0; i < 12; ++i) fd.data[i] = static_cast<std::uint8_t>(0x11 * i);
  EXPECT_EQ(t.frame(2), fd);
  EXPECT_EQ(t.frame(3), make_remote(0x123, 7));
  EXPECT_EQ(t.median_gap(0), 1'000'000);
}

TEST(TraceLoader, TheFirstBadLineStopsTheLoadNamingFileLineAndColumn) {
  const TempDir dir;
  const auto path =
      dir.write("bad.log", std::string(kCandump) + "(1700000000.004000) can0 12#00\n");
  EXPECT_EQ(
      message_of([&] { (void)load_trace(path); }),
      path.string() + ":6:26: expected a 3-digit (11-bit) or 8-digit (29-bit) hex id before '#'");
}

TEST(TraceLoader, LenientSkipsBadLinesAndCountsThem) {
  const TempDir dir;
  std::string log = kCandump;
  for (int i = 0; i < 12; ++i) log += "garbage\n";
  log += "(1700000000.005000) can0 7FF#01\n";
  const TraceLoad load = load_trace(dir.write("bad.log", log), {.lenient = true});
  EXPECT_EQ(load.trace.size(), 5U);
  EXPECT_EQ(load.bad_lines, 12U);
  ASSERT_EQ(load.first_bad_lines.size(), kMaxReportedBadLines);
  EXPECT_NE(load.first_bad_lines[0].find("bad.log:6:1: expected '('"), std::string::npos)
      << load.first_bad_lines[0];
  EXPECT_EQ(load.trace.record(4).time_ns, 5'000'000);
}

TEST(TraceLoader, AscFilesByExtensionOrContentWithChannelsAsInterfaces) {
  const TempDir dir;
  const std::string asc =
      "date Tue Nov 14 22:13:20 2023\n"
      "base hex  timestamps absolute\n"
      "no internal events logged\n"
      "   0.000000 Start of measurement\n"
      "   1.000000 1  123             Rx   d 1 11\n"
      "   1.000500 2  456             Tx   d 0\n"
      "   1.001000 CANFD   3 Rx        321   0 0 1  1 AA   0  0     1000 0 0 0 0 0\n";
  for (const char* name : {"x.asc", "x.ASC", "x.txt"}) {
    const TraceLoad load = load_trace(dir.write(name, asc));
    EXPECT_EQ(load.format, TraceFormat::asc) << name;
    ASSERT_EQ(load.trace.size(), 3U);
    EXPECT_EQ(load.trace.interfaces(), (std::vector<std::string>{"can0", "can1", "can2"}));
    EXPECT_EQ(load.trace.record(0).time_ns, 0);  // the first frame, not the measurement start
    EXPECT_EQ(load.trace.record(2).time_ns, 1'000'000);
    EXPECT_EQ(load.events, 1U);
  }
  const auto bad = dir.write("bad.asc", asc + "   1.002000 1  XYZ  Rx   d 0\n");
  EXPECT_EQ(message_of([&] { (void)load_trace(bad); }),
            bad.string() + ":8:16: expected a hex CAN id ('x' appended for a 29-bit id)");
}

TEST(TraceLoader, MissingFilesAndTimesTooFarApartAreErrors) {
  const TempDir dir;
  EXPECT_NE(message_of([&] {
              (void)load_trace(dir.path() / "nope.log");
            }).find("No such file or directory"),
            std::string::npos);
  const auto far =
      dir.write("far.log", "(0000000000.000000) can0 123#\n(9999999999999.000000) can0 123#\n");
  EXPECT_NE(message_of([&] {
              (void)load_trace(far);
            }).find("far.log:2:1: timestamp more than 285 years from the first frame's"),
            std::string::npos);
}

TEST(TraceLoader, StreamsOfEitherFormat) {
  std::istringstream candump(kCandump);
  EXPECT_EQ(load_trace(candump, "s", TraceFormat::candump, false).trace.size(), 4U);
  std::istringstream asc("0.1 1 1 Rx d 0\n0.2 1 2 Rx d 0\n");
  EXPECT_EQ(load_trace(asc, "s", TraceFormat::asc, false).trace.size(), 2U);
}

TEST(Trace, StoresPayloadsCompactlyAndInternsInterfaces) {
  Trace t;
  t.add(0, "a", make_fd(0x10, 64, kBrs, 7));
  t.add(1, "b", make_remote(0x11, 8));
  t.add(2, "a", make_frame(0x12, {9}));
  EXPECT_EQ(t.frame(0), make_fd(0x10, 64, kBrs, 7));
  EXPECT_EQ(t.frame(1), make_remote(0x11, 8));
  EXPECT_EQ(t.frame(2), make_frame(0x12, {9}));
  EXPECT_EQ(t.record(2).data_offset, 64U);  // the remote request stored no bytes
  EXPECT_EQ(t.record(2).interface, 0);
  EXPECT_EQ(sizeof(TraceRecord), 24U);
  CanFrame invalid;
  invalid.id = 0x800;
  EXPECT_THROW(t.add(3, "a", invalid), std::invalid_argument);
}

TEST(Trace, MedianGapFallsBackWithoutAPositiveGap) {
  Trace t;
  EXPECT_EQ(t.median_gap(42), 42);
  t.add(0, "a", {});
  t.add(0, "a", {});
  EXPECT_EQ(t.median_gap(42), 42);
  t.add(10, "a", {});
  t.add(11, "a", {});
  t.add(111, "a", {});
  EXPECT_EQ(t.median_gap(42), 10);  // of 10, 1, 100
}

}  // namespace
}  // namespace hil::io::can
