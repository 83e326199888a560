// Vector ASC lines as log2asc, python-can's ASCWriter and CANoe write them, and the errors of
// lines that are not right.

#include "io/can/trace/asc_reader.hpp"

#include <gtest/gtest.h>

#include <sstream>
#include <string>

#include "tests/support/frame_helpers.hpp"

namespace hil::io::can {
namespace {

using Kind = AscLineResult::Kind;
using test::make_fd;
using test::make_frame;
using test::make_remote;

AscFrame frame_of(AscLineParser& parser, std::string_view line) {
  const AscLineResult r = parser.parse(line);
  EXPECT_EQ(r.kind, Kind::frame) << line << ": " << r.error.message;
  return r.frame;
}

AscFrame frame_of(std::string_view line) {
  AscLineParser parser;
  return frame_of(parser, line);
}

TextError error_of(std::string_view line) {
  AscLineParser parser;
  const AscLineResult r = parser.parse(line);
  EXPECT_EQ(r.kind, Kind::bad) << line;
  return r.error;
}

TEST(AscLine, ClassicDataFramesAsLog2ascWritesThem) {
  const AscFrame f = frame_of("   0.001000 1  123             Rx   d 4 DE AD BE EF");
  EXPECT_EQ(f.time_ns, 1'000'000);
  EXPECT_EQ(f.channel, 1U);
  EXPECT_EQ(f.frame, make_frame(0x123, {0xDE, 0xAD, 0xBE, 0xEF}));
  EXPECT_EQ(frame_of("   0.000100 2  1F334455x       Tx   d 2 11 22").frame,
            make_frame(0x1F334455, {0x11, 0x22}, kExtended));
  EXPECT_EQ(frame_of("   0.000900 1  1               Rx   d 1 01").frame, make_frame(1, {1}));
  EXPECT_EQ(frame_of("   0.000800 2  7FF             Tx   d 0").frame, make_frame(0x7FF, {}));
  EXPECT_EQ(frame_of("0.5 1 7ff rx D 2 aa bb").frame, make_frame(0x7FF, {0xAA, 0xBB}));
}

TEST(AscLine, CanoeAttributesAfterTheDataAreIgnored) {
  EXPECT_EQ(frame_of("   2.501200 1  64              Rx   d 2 01 02  Length = 228000 BitCount = "
                     "118 ID = 100")
                .frame,
            make_frame(0x64, {1, 2}));
}

TEST(AscLine, ClassicDlcAbove8CarriesEightBytes) {
  EXPECT_EQ(frame_of("0.0 1 10 Rx d F 1 2 3 4 5 6 7 8").frame.length, 8);
}

TEST(AscLine, RemoteFramesWithAndWithoutTheirDlc) {
  EXPECT_EQ(frame_of("   0.000300 1  123             Rx   r 7").frame, make_remote(0x123, 7));
  EXPECT_EQ(frame_of("   0.000200 1  123             Rx   r").frame, make_remote(0x123, 0));
  EXPECT_EQ(frame_of("0.1 1 1ABCDEFx Tx r 8").frame, make_remote(0x1ABCDEF, 8, true));
}

TEST(AscLine, ErrorFramesBecomeWhatAsc2logMakes) {
  const AscFrame f = frame_of("   0.000600 3  ErrorFrame");
  EXPECT_EQ(f.channel, 3U);
  EXPECT_TRUE(f.frame.error());
  EXPECT_EQ(f.frame.id, kAscErrorFrameClass);
  EXPECT_EQ(f.frame.length, 8);
  EXPECT_TRUE(is_valid(f.frame));
  EXPECT_TRUE(frame_of("1.0 CANFD 2 Rx ErrorFrame 1 0 0 0").frame.error());
}

TEST(AscLine, CanFdFramesAsLog2ascWritesThem) {
  AscFrame f = frame_of(
      "   0.000400 CANFD   2 Rx        321                                   1 0 9 12 00 11 22 "
      "33 44 55 66 77 88 99 AA BB   130000  130     3000 0 0 0 0 0");
  EXPECT_EQ(f.channel, 2U);
  CanFrame expected = make_fd(0x321, 12, kBrs);
  for (std::size_t i = 0; i < 12; ++i) expected.data[i] = static_cast<std::uint8_t>(0x11 * i);
  EXPECT_EQ(f.frame, expected);
  f = frame_of(
      "   0.000500 CANFD   1 Rx        321        0 1 1  1 AA   130000  130     5000 0 0 "
      "0 0 0");
  EXPECT_EQ(f.frame, make_frame(0x321, {0xAA}, kFd | kEsi));
}

TEST(AscLine, CanFdLinesAsPythonCanWritesThem) {
  // FORMAT_MESSAGE_FD: a symbolic-name column (empty, or a name) before BRS.
  const AscFrame f = frame_of(
      "0.012300 CANFD   1 Tx   1ABCDEFx                                  0 0 8  8 01 02 03 04 "
      "05 06 07 08        0    0     1000        0        0        0        0        0");
  EXPECT_EQ(f.frame, make_frame(0x1ABCDEF, {1, 2, 3, 4, 5, 6, 7, 8}, kExtended | kFd));
  EXPECT_EQ(frame_of("0.1 CANFD 1 Rx 10 EngineData 1 0 a 16 " + std::string(47, ' ') +
                     "00 01 02 03 04 05 06 07 08 09 0A 0B 0C 0D 0E 0F")
                .frame,
            make_fd(0x10, 16, kBrs));
}

TEST(AscLine, CanFdLinesOfClassicFramesTellByTheirFlags) {
  // log2asc -f writes classic frames as CANFD lines without EDL (0x1000); remote has 0x10.
  EXPECT_EQ(frame_of("   0.000000 CANFD   1 Rx        123     0 0 4  4 DE AD BE EF   130000  "
                     "130        0 0 0 0 0 0")
                .frame,
            make_frame(0x123, {0xDE, 0xAD, 0xBE, 0xEF}));
  EXPECT_EQ(frame_of("   0.000300 CANFD   1 Rx        123     0 0 7  0   130000  130       10 "
                     "0 0 0 0 0 0")
                .frame,
            make_remote(0x123, 7));
  // Without the trailing columns the line is an FD frame.
  EXPECT_EQ(frame_of("0.0 CANFD 1 Rx 123 0 0 2 2 01 02").frame, make_frame(0x123, {1, 2}, kFd));
}

TEST(AscLine, TimestampsHaveOneToNineDecimals) {
  EXPECT_EQ(frame_of("12.5 1 1 Rx d 0").time_ns, 12'500'000'000);
  EXPECT_EQ(frame_of("0.0001 1 1 Rx d 0").time_ns, 100'000);  // log2asc -4
  EXPECT_EQ(frame_of("1.000000001 1 1 Rx d 0").time_ns, 1'000'000'001);
  EXPECT_EQ(error_of("1.0000000001 1 1 Rx d 0").column, 11U);
  EXPECT_EQ(error_of("1 1 1 Rx d 0").column, 1U);
  EXPECT_EQ(error_of("1234567890.0 1 1 Rx d 0").column, 9U);
}

TEST(AscLine, BaseDecReadsIdsAndBytesInDecimal) {
  AscLineParser parser;
  EXPECT_EQ(parser.parse("base dec  timestamps absolute").kind, Kind::header);
  EXPECT_EQ(frame_of(parser, "0.1 1 291 Rx d 2 255 16").frame, make_frame(0x123, {0xFF, 0x10}));
  const AscLineResult r = parser.parse("0.2 1 12A Rx d 0");
  ASSERT_EQ(r.kind, Kind::bad);
  EXPECT_EQ(r.error.message, "expected a decimal CAN id ('x' appended for a 29-bit id)");
}

TEST(AscLine, RelativeTimestampsAddUp) {
  AscLineParser parser;
  EXPECT_EQ(parser.parse("base hex timestamps relative").kind, Kind::header);
  EXPECT_EQ(frame_of(parser, "0.5 1 1 Rx d 0").time_ns, 500'000'000);
  EXPECT_EQ(parser.parse("0.25 Start of measurement").kind, Kind::event);
  EXPECT_EQ(frame_of(parser, "0.25 1 1 Rx d 0").time_ns, 1'000'000'000);
}

TEST(AscLine, ALaterTriggerBlockContinuesAfterTheLastTime) {
  AscLineParser parser;
  EXPECT_EQ(parser.parse("Begin Triggerblock Tue Nov 14 22:13:20.000 2023").kind, Kind::header);
  EXPECT_EQ(frame_of(parser, "2.0 1 1 Rx d 0").time_ns, 2'000'000'000);
  EXPECT_EQ(parser.parse("End TriggerBlock").kind, Kind::header);
  EXPECT_EQ(parser.parse("Begin Triggerblock Tue Nov 14 22:20:00.000 2023").kind, Kind::header);
  EXPECT_EQ(frame_of(parser, "0.5 1 1 Rx d 0").time_ns, 2'500'000'000);
}

TEST(AscLine, HeadersCommentsAndEventsAreNotFrames) {
  AscLineParser parser;
  for (const char* header :
       {"date Tue Nov 14 22:13:20 2023", "base hex  timestamps absolute",
        "no internal events logged", "internal events logged", "// version 13.0.0", "", "   \r",
        "Begin Triggerblock Tue Nov 14 22:13:20.000 2023", "End TriggerBlock"}) {
    EXPECT_EQ(parser.parse(header).kind, Kind::header) << header;
  }
  for (const char* event :
       {"   0.000000 Start of measurement", "   2.501 1  Statistic: D 0 R 0 XD 0 XR 0 E 0 O 0",
        "   0.000000 CAN 1 Status:chip status error active", "1.0 SV: 4 0 1 ::Var = 1",
        "3.0 1 J1939TP FEEBp 6 0 0 - Rx d 23"}) {
    EXPECT_EQ(parser.parse(event).kind, Kind::event) << event;
  }
}

TEST(AscLine, BadLinesSayWhereAndWhy) {
  struct Case {
    const char* line;
    std::size_t column;
    std::string_view message;
  };
  const Case cases[] = {
      {"0.1 1 800 Rx d 0", 6, "an 11-bit id must be at most 7FF (a 29-bit id ends in 'x')"},
      {"0.1 1 20000000x Rx d 0", 6, "a 29-bit id must be at most 1FFFFFFF"},
      {"0.1 1 12G Rx d 0", 6, "expected a hex CAN id ('x' appended for a 29-bit id)"},
      {"0.1 1 123 Rx q 0", 13, "expected 'd' (data) or 'r' (remote request) after Rx/Tx"},
      {"0.1 1 123 Rx d G", 15, "expected the DLC (0-F) after 'd'"},
      {"0.1 1 123 Rx d 3 01 02", 22, "fewer data bytes than the length says"},
      {"0.1 1 123 Rx d 2 01 XY", 20, "expected a data byte"},
      {"0.1 1 123 Rx d 1 01 02", 20, "more data bytes than the DLC says"},
      {"0.1 0 123 Rx d 0", 4, "expected a channel number 1..65535"},
      {"0.1 CANFD 1 Rx 123 0 0 9 1 00", 25, "the data length is not the one the DLC gives"},
      {"0.1 CANFD 1 Rx 123 2 0 1 1 00", 19, "expected BRS 0 or 1"},
      {"0.1 CANFD 1 Up 123 0 0 1 1 00", 12, "expected Rx or Tx"},
      {"0.1 CANFD 1 Rx 123 0 0 1 1 00 0 0 1010", 34,
       "the flags mark an FD frame as a remote request"},
      {"0.1 CANFD 1 Rx 123 1 0 1 1 00 0 0 0", 19,
       "BRS or ESI on a classic frame (its flags lack EDL 1000)"},
      {"0.1 CANFD 1 Rx 123 0 0 1 1 00 0 0 ZZ", 34,
       "expected the flags (hex, e.g. 1000 for an FD frame)"},
      {"base oct", 5, "expected 'hex' or 'dec' after 'base'"},
      {"Begin Trigger", 6, "expected 'Triggerblock' after 'Begin' or 'End'"},
      {"hello", 0,
       "expected a timestamp or a header line (date, base, internal events logged, "
       "Begin/End Triggerblock, // comment)"},
      {"0.1", 3, "expected a channel, CANFD or an event after the time"},
  };
  for (const Case& c : cases) {
    const TextError e = error_of(c.line);
    EXPECT_EQ(e.column, c.column) << c.line;
    EXPECT_EQ(e.message, c.message) << c.line;
  }
}

TEST(AscLine, TimesThatWouldOverflowAreBadLines) {
  AscLineParser parser;
  ASSERT_EQ(parser.parse("base hex timestamps relative").kind, Kind::header);
  AscLineResult r;
  for (int i = 0; i < 20 && r.kind != Kind::bad; ++i) r = parser.parse("999999999.9 1 1 Rx d 0");
  ASSERT_EQ(r.kind, Kind::bad);
  EXPECT_EQ(r.error.message, "the time overflows (more than 292 years since the start)");
}

TEST(AscReader, ReadsAFileReportingBadLinesWithTheirPlace) {
  std::istringstream in(
      "date Tue Nov 14 22:13:20 2023\n"
      "base hex  timestamps absolute\n"
      "no internal events logged\n"
      "   0.000000 Start of measurement\n"
      "   0.001000 1  123             Rx   d 1 11\n"
      "   0.002000 1  800             Rx   d 0\n"
      "   0.003000 2  ErrorFrame\r\n" +
      std::string(5000, ' ') + "\n" + "End TriggerBlock\n");
  AscReader reader(in, "t.asc");
  ASSERT_EQ(reader.next(), AscReader::Status::frame);
  EXPECT_EQ(reader.frame().frame, make_frame(0x123, {0x11}));
  ASSERT_EQ(reader.next(), AscReader::Status::bad_line);
  EXPECT_EQ(reader.describe_bad_line(),
            "t.asc:6:16: an 11-bit id must be at most 7FF (a 29-bit id ends in 'x')");
  ASSERT_EQ(reader.next(), AscReader::Status::frame);
  EXPECT_EQ(reader.frame().channel, 2U);
  ASSERT_EQ(reader.next(), AscReader::Status::bad_line);
  EXPECT_EQ(reader.bad_line().line, 8U);
  EXPECT_EQ(reader.bad_line().message, "line longer than 4096 characters");
  EXPECT_EQ(reader.next(), AscReader::Status::end);
  EXPECT_EQ(reader.frames(), 2U);
  EXPECT_EQ(reader.bad_lines(), 2U);
  EXPECT_EQ(reader.events(), 1U);
  EXPECT_EQ(reader.line_number(), 9U);
}

}  // namespace
}  // namespace hil::io::can
