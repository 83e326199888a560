// candump -l log lines and the streaming reader: exact candump formatting, 6/9-decimal
// timestamps, direction suffixes, bad lines with line numbers, round trips.

#include <gtest/gtest.h>

#include <random>
#include <sstream>
#include <string>

#include "io/can/trace/candump_log.hpp"
#include "io/can/trace/candump_reader.hpp"

namespace hil::io::can {
namespace {

CandumpLine parsed(std::string_view text) {
  const CandumpParseResult r = parse_candump_line(text);
  EXPECT_TRUE(r.ok) << text << ": column " << r.error.column << ": " << r.error.message;
  return r.line;
}

TEST(CandumpLog, ParsesWhatCandumpWrites) {
  const CandumpLine l = parsed("(1436509052.249713) vcan0 044#2A366C2BBA");
  EXPECT_EQ(l.time.seconds, 1436509052);
  EXPECT_EQ(l.time.nanoseconds, 249'713'000U);
  EXPECT_EQ(l.interface, "vcan0");
  EXPECT_EQ(l.frame.id, 0x044U);
  EXPECT_EQ(l.frame.length, 5);
  EXPECT_EQ(l.direction, CandumpDirection::unspecified);
}

TEST(CandumpLog, FormatsExactlyAsCandumpL) {
  CandumpLine l;
  l.time = {.seconds = 12, .nanoseconds = 500'000'999};  // below a microsecond is dropped
  l.interface = "can0";
  l.frame.id = 0x123;
  l.frame.length = 2;
  l.frame.data[0] = 0xAB;
  l.frame.data[1] = 0x01;
  // candump: "(%010lu.%06lu) %*s %s" — seconds zero-padded to ten digits.
  EXPECT_EQ(to_candump_line(l), "(0000000012.500000) can0 123#AB01");
  l.time = {.seconds = 1700000000, .nanoseconds = 1000};
  l.direction = CandumpDirection::transmitted;
  EXPECT_EQ(to_candump_line(l), "(1700000000.000001) can0 123#AB01 T");
}

TEST(CandumpLog, NanosecondTimestampsAndDirectionSuffixes) {
  CandumpLine l = parsed("(1700000000.123456789) can1 1F334455##1112233 R");
  EXPECT_EQ(l.time.nanoseconds, 123'456'789U);
  EXPECT_EQ(l.direction, CandumpDirection::received);
  EXPECT_TRUE(l.frame.fd());
  EXPECT_TRUE(l.frame.extended());
  l = parsed("  (0.000001)\tcan0  123#R7  T\r");
  EXPECT_EQ(l.time.seconds, 0);
  EXPECT_EQ(l.time.nanoseconds, 1000U);
  EXPECT_EQ(l.direction, CandumpDirection::transmitted);
  EXPECT_TRUE(l.frame.remote());
}

TEST(CandumpLog, BadLinesSayWhereAndWhat) {
  struct Case {
    const char* text;
    std::size_t column;
    const char* part;
  };
  const Case cases[] = {
      {"1436509052.249713 can0 123#00", 0, "expected '('"},
      {"(1436509052) can0 123#00", 11, "SECONDS.FRACTION"},
      {"(1436509052.2497) can0 123#00", 12, "6 (microseconds) or 9"},
      {"(1436509052.2497131) can0 123#00", 12, "6 (microseconds) or 9"},
      {"(1436509052.249713 can0 123#00", 18, "expected ')'"},
      {"(1436509052.249713)", 19, "interface"},
      {"(1436509052.249713) can0", 24, "frame (ID#DATA)"},
      {"(1436509052.249713) can0 123#0", 30, "two hex digits"},
      {"(1436509052.249713) can0 123#00 X", 32, "direction 'R'/'T'"},
      {"(1436509052.249713) can0 123#00 R extra", 34, "after the direction"},
      {"(1234567890123456789.000000) can0 123#00", 19, "more than 18 digits"},
  };
  for (const Case& c : cases) {
    const CandumpParseResult r = parse_candump_line(c.text);
    EXPECT_FALSE(r.ok) << c.text;
    EXPECT_EQ(r.error.column, c.column) << c.text << ": " << r.error.message;
    EXPECT_NE(r.error.message.find(c.part), std::string_view::npos)
        << c.text << ": " << r.error.message;
  }
}

// Found by candump_fuzz (crash-c142c65a...): a NUL inside the interface name parsed, but the
// line could then not be written back. Control characters are now rejected where they are.
TEST(CandumpLog, FuzzRegressionControlCharactersInTheInterfaceName) {
  using namespace std::string_literals;
  const std::string line = "(2.000000) ca\0\0\0an0 123#11.22.33"s;
  const CandumpParseResult r = parse_candump_line(line);
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.error.column, 13U);
  EXPECT_EQ(r.error.message, "control character in the interface name");
  EXPECT_FALSE(parse_candump_line("(2.000000) can\x7f 123#00").ok);
  EXPECT_TRUE(parse_candump_line("(2.000000) caf\xC3\xA9 123#00").ok);  // UTF-8 is fine
}

TEST(CandumpLog, RandomLinesRoundTrip) {
  std::mt19937_64 rng(7);
  for (int i = 0; i < 3000; ++i) {
    CandumpLine l;
    l.time = {.seconds = static_cast<std::int64_t>(rng() % 100'000'000'000ULL),
              .nanoseconds = static_cast<std::uint32_t>(rng() % 1'000'000) * 1000};
    l.interface = (i % 2 != 0) ? "can0" : "vcan12";
    l.direction = static_cast<CandumpDirection>(rng() % 3);
    l.frame.flags = (rng() % 2 != 0) ? kExtended : 0;
    l.frame.id =
        static_cast<std::uint32_t>(rng()) & (l.frame.extended() ? kMaxExtendedId : kMaxStandardId);
    l.frame.length = static_cast<std::uint8_t>(rng() % 9);
    for (std::size_t b = 0; b < l.frame.length; ++b)
      l.frame.data[b] = static_cast<std::uint8_t>(rng());
    const std::string text = to_candump_line(l);
    const CandumpParseResult back = parse_candump_line(text);
    ASSERT_TRUE(back.ok) << text;
    EXPECT_EQ(back.line.time, l.time);
    EXPECT_EQ(back.line.interface, l.interface);
    EXPECT_EQ(back.line.frame, l.frame);
    EXPECT_EQ(back.line.direction, l.direction);
  }
}

TEST(CandumpLog, UnformattableLinesGiveNothing) {
  CandumpLine l;
  l.interface = "";
  EXPECT_EQ(to_candump_line(l), "");
  l.interface = "can 0";
  EXPECT_EQ(to_candump_line(l), "");
  l.interface = "can0";
  l.time.seconds = -1;
  EXPECT_EQ(to_candump_line(l), "");
}

TEST(CandumpReader, ReadsFramesReportsBadLinesWithNumbersAndCarriesOn) {
  std::istringstream in(
      "(1.000000) can0 100#01\n"
      "\n"
      "not a log line\n"
      "(2.000000) can0 101#0203 R\n"
      "(3.000000) can0 10#00\n"
      "(4.000000) can1 20000004#0000000000000000");  // no final newline
  CandumpReader reader(in, "can.log");
  ASSERT_EQ(reader.next(), CandumpReader::Status::frame);
  EXPECT_EQ(reader.line().frame.id, 0x100U);
  EXPECT_EQ(reader.line_number(), 1U);
  ASSERT_EQ(reader.next(), CandumpReader::Status::bad_line);
  EXPECT_EQ(reader.bad_line().line, 3U);
  EXPECT_EQ(reader.describe_bad_line(),
            "can.log:3:1: expected '(' and the timestamp, e.g. (1700000000.000000)");
  ASSERT_EQ(reader.next(), CandumpReader::Status::frame);
  EXPECT_EQ(reader.line().direction, CandumpDirection::received);
  ASSERT_EQ(reader.next(), CandumpReader::Status::bad_line);
  EXPECT_EQ(reader.describe_bad_line(),
            "can.log:5:17: expected a 3-digit (11-bit) or 8-digit (29-bit) hex id before '#'");
  ASSERT_EQ(reader.next(), CandumpReader::Status::frame);
  EXPECT_TRUE(reader.line().frame.error());
  EXPECT_EQ(reader.line().interface, "can1");
  EXPECT_EQ(reader.next(), CandumpReader::Status::end);
  EXPECT_EQ(reader.frames(), 3U);
  EXPECT_EQ(reader.bad_lines(), 2U);
  EXPECT_EQ(reader.direction_suffixes(), 1U);
}

TEST(CandumpReader, OverlongLinesAreBadLinesAndTheNextLineStillReads) {
  std::istringstream in(std::string(100'000, 'x') + "\n(1.000000) can0 100#01\n");
  CandumpReader reader(in, "big.log");
  ASSERT_EQ(reader.next(), CandumpReader::Status::bad_line);
  EXPECT_NE(reader.describe_bad_line().find("big.log:1:4097: line longer than 4096"),
            std::string::npos);
  ASSERT_EQ(reader.next(), CandumpReader::Status::frame);
  EXPECT_EQ(reader.line_number(), 2U);
  EXPECT_EQ(reader.next(), CandumpReader::Status::end);
}

}  // namespace
}  // namespace hil::io::can
