// `hilsim dbc show|encode|decode` as a user runs it, on tests/io/data/vehicle.dbc.

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "tests/support/run_command.hpp"
#include "tests/support/temp_dir.hpp"

namespace {

using hil::io::testing::CommandResult;

constexpr const char* kDbcPath = HIL_SOURCE_DIR "/tests/io/data/vehicle.dbc";

CommandResult hilsim(const std::string& args, bool with_stderr = true) {
  return hil::io::testing::run_command(std::string(HILSIM_BINARY) + " " + args, with_stderr);
}

const std::string& dbc_path() {
  static const std::string path = kDbcPath;
  return path;
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

TEST(HilsimDbc, ShowListsMessagesSignalsAndValueTables) {
  const CommandResult run = hilsim("dbc show " + dbc_path());
  ASSERT_EQ(run.status, 0) << run.output;
  const std::string& s = run.output;
  EXPECT_TRUE(contains(s, "VERSION \"1.0\", 6 messages, 3 nodes (HIL, ECU, Logger)")) << s;
  EXPECT_TRUE(
      contains(s, "BO_ 0x100 (256) WheelSpeeds: 8 bytes, classic CAN, cycle 10 ms, sender HIL"))
      << s;
  EXPECT_TRUE(contains(s, "BO_ 0x18FEF1FE (29-bit) DiagExt: 8 bytes, classic CAN, sender HIL"))
      << s;
  EXPECT_TRUE(contains(s, "BO_ 0x300 (768) FdStatus: 64 bytes, CAN FD with BRS, cycle 100 ms"))
      << s;
  EXPECT_TRUE(contains(s, "7|16@0- Motorola bits 7..8")) << s;
  EXPECT_TRUE(contains(s, "(0.01,0)")) << s;
  EXPECT_TRUE(contains(s, "[-3276.8|3276.7]")) << s;
  EXPECT_TRUE(contains(s, "float32")) << s;
  EXPECT_TRUE(contains(s, "mux2=3..5")) << s;
  EXPECT_TRUE(contains(s, "gear values: 0=P 1=R 2=N 3=D")) << s;
  EXPECT_TRUE(contains(s, "GearTable: 0=P 1=R 2=N 3=D")) << s;
}

TEST(HilsimDbc, EncodePrintsCandumpSyntax) {
  CommandResult run =
      hilsim("dbc encode " + dbc_path() + " WheelSpeeds speed_fl=12.5 speed_rr=0.01");
  ASSERT_EQ(run.status, 0) << run.output;
  EXPECT_EQ(run.output, "100#E204000000000100\n");  // 1250 = 04E2, 1 = 0001, little endian
  // VAL_ names; signals not given take GenSigStartValue (coolant_temp raw 80 → 0140).
  run = hilsim("dbc encode " + dbc_path() + " Powertrain gear=D torque_req=-20.5 throttle=50");
  ASSERT_EQ(run.status, 0) << run.output;
  EXPECT_EQ(run.output, "101#FF3330007D000140\n");
  // 29-bit ids have 8 digits; the message can be named by its id.
  run = hilsim("dbc encode " + dbc_path() + " 0x18FEF1FE counter=3 level=1.5");
  ASSERT_EQ(run.status, 0) << run.output;
  EXPECT_EQ(run.output, "18FEF1FE#030000000000C03F\n");
}

TEST(HilsimDbc, EncodeFdFramesWithTheFlagsDigit) {
  const CommandResult run = hilsim("dbc encode " + dbc_path() + " FdStatus position=-2 tail=0xABC");
  ASSERT_EQ(run.status, 0) << run.output;
  const std::string payload = "C000000000000000" + std::string(108, '0') + "C0AB";
  EXPECT_EQ(run.output, "300##1" + payload + "\n");  // BRS: flags digit 1
}

TEST(HilsimDbc, EncodeWarnsAboutSaturationAndUnselectedSignals) {
  CommandResult run = hilsim("dbc encode " + dbc_path() + " WheelSpeeds speed_fl=1000");
  ASSERT_EQ(run.status, 0) << run.output;
  EXPECT_TRUE(
      contains(run.output, "warning: speed_fl=1000 is out of range; saturated to 655.35 rad/s"));
  EXPECT_TRUE(contains(run.output, "100#FFFF000000000000"));
  run = hilsim("dbc encode " + dbc_path() + " MuxSimple mode=1 a=5 b=-3.5");
  ASSERT_EQ(run.status, 0) << run.output;
  EXPECT_TRUE(contains(run.output, "warning: a not encoded: multiplexor mode does not select it"));
  EXPECT_TRUE(contains(run.output, "200#01F9FF0000000000"));
}

TEST(HilsimDbc, EncodeRejectsUnknownMessagesSignalsAndValues) {
  CommandResult run = hilsim("dbc encode " + dbc_path() + " Nope");
  EXPECT_NE(run.status, 0);
  EXPECT_TRUE(contains(run.output, "no message 'Nope'")) << run.output;
  EXPECT_TRUE(contains(run.output, "WheelSpeeds, Powertrain")) << run.output;
  run = hilsim("dbc encode " + dbc_path() + " WheelSpeeds speed=1");
  EXPECT_NE(run.status, 0);
  EXPECT_TRUE(
      contains(run.output, "'speed=1': expected SIGNAL=VALUE with a signal of WheelSpeeds"));
  run = hilsim("dbc encode " + dbc_path() + " Powertrain gear=X");
  EXPECT_NE(run.status, 0);
  EXPECT_TRUE(contains(run.output, "'X' is not a number nor one of P, R, N, D")) << run.output;
}

TEST(HilsimDbc, DecodePrintsSignalsUnitsAndValueNames) {
  const CommandResult run = hilsim("dbc decode " + dbc_path() + " 101#FF3330007D000140");
  ASSERT_EQ(run.status, 0) << run.output;
  EXPECT_EQ(run.output,
            "Powertrain 0x101\n"
            "  torque_req=-20.5 N*m\n"
            "  gear=3 (D)\n"
            "  brake=0\n"
            "  throttle=50 %\n"
            "  coolant_temp=0 degC\n");
}

TEST(HilsimDbc, DecodeMultiplexedShortAndJson) {
  CommandResult run = hilsim("dbc decode " + dbc_path() + " 201#0106AA");
  ASSERT_EQ(run.status, 0) << run.output;
  EXPECT_EQ(run.output, "MuxExt 0x201\n  mux1=1\n  mux2=6\n  sig_e=170\n");
  run = hilsim("dbc decode " + dbc_path() + " 100#E204");
  EXPECT_TRUE(
      contains(run.output, "(frame has 2 of 8 bytes: speed_fr, speed_rl, speed_rr not decoded)"));
  run = hilsim("dbc decode " + dbc_path() + " 18FEF1FE#030000000000C03F --json", false);
  ASSERT_EQ(run.status, 0) << run.output;
  const nlohmann::json j = nlohmann::json::parse(run.output);
  EXPECT_EQ(j.at("message"), "DiagExt");
  EXPECT_EQ(j.at("id"), 0x18FEF1FE);
  EXPECT_TRUE(j.at("extended").get<bool>());
  EXPECT_EQ(j.at("signals").at("counter").at("value"), 3);
  EXPECT_EQ(j.at("signals").at("level").at("value"), 1.5);
  EXPECT_EQ(j.at("signals").at("level").at("unit"), "m");
}

TEST(HilsimDbc, DecodeRejectsBadFramesAndUnknownIds) {
  CommandResult run = hilsim("dbc decode " + dbc_path() + " 7FF#00");
  EXPECT_EQ(run.status, 1);
  EXPECT_TRUE(contains(run.output, "no message with id 0x7FF (11-bit)")) << run.output;
  run = hilsim("dbc decode " + dbc_path() + " 101#0");
  EXPECT_NE(run.status, 0);
  EXPECT_TRUE(contains(run.output, "'101#0' at column 6: expected two hex digits per data byte"))
      << run.output;
}

TEST(HilsimDbc, SixtyFourBitIntegersAreEncodedExactlyBothOrdersBothSigns) {
  const hil::config::testing::TempDir dir;
  const auto dbc = dir.write("u64.dbc",
                             "VERSION \"\"\n\n"
                             "BO_ 256 Big: 8 Vector__XXX\n"
                             " SG_ counter : 0|64@1+ (1,0) [0|0] \"\" Vector__XXX\n\n"
                             "BO_ 257 BigM: 8 Vector__XXX\n"
                             " SG_ value : 7|64@0- (1,0) [0|0] \"\" Vector__XXX\n\n"
                             "BO_ 258 Small: 2 Vector__XXX\n"
                             " SG_ s16 : 0|16@1- (1,0) [0|0] \"\" Vector__XXX\n");
  const std::string file = dbc.string();
  // 0x0123456789ABCDEF: through a double it would end …CDF0
  for (const char* v : {"81985529216486895", "0x0123456789ABCDEF"}) {
    const CommandResult run = hilsim("dbc encode " + file + " Big counter=" + v);
    EXPECT_EQ(run.output, "100#EFCDAB8967452301\n") << v;
  }
  EXPECT_EQ(hilsim("dbc encode " + file + " Big counter=18446744073709551615").output,
            "100#FFFFFFFFFFFFFFFF\n");
  EXPECT_EQ(hilsim("dbc encode " + file + " BigM value=-9223372036854775807").output,
            "101#8000000000000001\n");
  // and back, exactly
  EXPECT_TRUE(contains(hilsim("dbc decode " + file + " 100#EFCDAB8967452301").output,
                       "counter=81985529216486895"));
  const CommandResult over = hilsim("dbc encode " + file + " Small s16=40000");
  EXPECT_TRUE(contains(over.output, "102#FF7F")) << over.output;
  EXPECT_TRUE(contains(over.output, "s16=40000 does not fit its signed 16-bit integer; saturated"))
      << over.output;
}

TEST(HilsimDbc, DecodeLogPrintsBlocksReportsBadLinesAndUnknownIds) {
  const hil::config::testing::TempDir dir;
  const auto log = dir.write("can.log",
                             "(1700000000.000000) can0 100#E204FFFF00000000\n"
                             "(1700000000.000100) can0 7FF#00\n"
                             "not a line\n"
                             "(1700000000.000200) can1 201#0104EFBE00000000 R\n"
                             "(1700000000.000300) can0 12345678#00\n"
                             "(1700000000.000400) can0 7FF#01\n");
  const CommandResult run = hilsim("dbc decode " + dbc_path() + " --log " + log.string());
  ASSERT_EQ(run.status, 0) << run.output;
  const std::string& s = run.output;
  EXPECT_TRUE(contains(s,
                       "(1700000000.000000) can0 100#E204FFFF00000000 WheelSpeeds\n"
                       "  speed_fl=12.5 rad/s\n  speed_fr=655.35 rad/s\n"))
      << s;
  EXPECT_TRUE(contains(s,
                       "(1700000000.000200) can1 201#0104EFBE00000000 MuxExt\n  mux1=1\n  mux2=4\n"
                       "  sig_c=48879\n"))
      << s;
  EXPECT_TRUE(contains(s, "can.log:3:1: expected '(' and the timestamp")) << s;
  EXPECT_TRUE(contains(s, "5 frames, 2 decoded, 3 with ids not in " + dbc_path() +
                              " (0x7FF x2, 0x12345678 x1), 1 bad line, 1 line with an R/T "
                              "direction suffix"))
      << s;
}

TEST(HilsimDbc, DecodeLogAsJsonLines) {
  const hil::config::testing::TempDir dir;
  const auto log =
      dir.write("can.log", "(1.000000) can0 101#FF3330007D000140\n(2.000000) can0 7FF#\n");
  const CommandResult run =
      hilsim("dbc decode " + dbc_path() + " --log " + log.string() + " --json", false);
  ASSERT_EQ(run.status, 0) << run.output;
  const nlohmann::json j = nlohmann::json::parse(run.output);  // one line: one object
  EXPECT_EQ(j.at("timestamp"), "0000000001.000000");
  EXPECT_EQ(j.at("interface"), "can0");
  EXPECT_EQ(j.at("signals").at("gear").at("label"), "D");
  EXPECT_EQ(j.at("signals").at("torque_req").at("value"), -20.5);
}

TEST(HilsimDbc, DecodeLogReadsABlfTraceLikeItsCandumpTwin) {
  if (hil::io::testing::run_command("/usr/bin/python3 -c 'import can'").status != 0) {
    GTEST_SKIP() << "python3-can not installed (tools/install-deps.sh)";
  }
  const hil::config::testing::TempDir dir;
  const auto log = dir.write("can.log",
                             "(1700000000.000000) can0 100#E204FFFF00000000\n"
                             "(1700000000.000100) can0 7FF#00\n"
                             "(1700000000.000200) can1 201#0104EFBE00000000\n"
                             "(1700000000.000300) can0 20000080#0000000000000000\n"
                             "(1700000000.001300) can0 12345678#00\n");
  const auto blf = dir.path() / "trace.blf";
  const CommandResult convert = hil::io::testing::run_command(
      "/usr/bin/python3 " HIL_SOURCE_DIR "/tests/io/can/trace/python_can_write_blf.py " +
      log.string() + " " + blf.string());
  ASSERT_EQ(convert.status, 0) << convert.output;
  const CommandResult run = hilsim("dbc decode " + dbc_path() + " --log " + blf.string());
  ASSERT_EQ(run.status, 0) << run.output;
  const std::string& s = run.output;
  EXPECT_TRUE(contains(s,
                       "(0.000000) can0 100#E204FFFF00000000 WheelSpeeds\n"
                       "  speed_fl=12.5 rad/s\n  speed_fr=655.35 rad/s\n"))
      << s;
  EXPECT_TRUE(contains(s,
                       "(0.000200) can1 201#0104EFBE00000000 MuxExt\n  mux1=1\n  mux2=4\n"
                       "  sig_c=48879\n"))
      << s;
  EXPECT_TRUE(contains(s, blf.string() +
                              " (blf; times since the first frame): 5 frames, 2 decoded, 2 with "
                              "ids not in " +
                              dbc_path() +
                              " (0x7FF x1, 0x12345678 x1), 1 error frame, 0 bad objects, 0 other "
                              "objects skipped"))
      << s;
}

TEST(HilsimDbc, MalformedDbcNamesFileLineColumn) {
  const hil::config::testing::TempDir dir;
  const auto dbc =
      dir.write("ravon.dbc", "BO_ 1 M: 8 X\n SG_ speed_fl : 0|16@2+ (1,0) [0|0] \"\" X\n");
  const CommandResult run = hilsim("dbc show " + dbc.string());
  EXPECT_EQ(run.status, 1);
  EXPECT_TRUE(contains(run.output, dbc.string() +
                                       ":2:21: SG_ 'speed_fl': expected '@0' or '@1' after the bit "
                                       "length, got '@2'"))
      << run.output;
}

TEST(HilsimDbc, HelpShowsExamples) {
  for (const char* sub : {"show", "encode", "decode"}) {
    const CommandResult run = hilsim(std::string("dbc ") + sub + " --help");
    EXPECT_EQ(run.status, 0) << sub;
    EXPECT_TRUE(contains(run.output, "hilsim dbc " + std::string(sub))) << run.output;
  }
}

}  // namespace
