// DBC files from the field (issue 19): what production files write outside the grammar is read
// with a located warning saying what was assumed (the command line's default), refused where it
// changes what a frame means when a rig reads its DBC strictly, and — broken beyond reading —
// skipped statement by statement with a located warning under DbcReadSpec::lenient.

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "io/can/dbc/dbc_codec.hpp"
#include "io/can/dbc/dbc_parser.hpp"

namespace hil::io::can::dbc {
namespace {

constexpr DbcReadSpec kRig{.accept_deviations = false};
constexpr DbcReadSpec kLenient{.lenient = true};

std::string error_of(const std::string& text, const DbcReadSpec& options) {
  try {
    (void)parse_dbc(text, "field.dbc", options);
  } catch (const DbcError& e) {
    return e.what();
  }
  return "(no error)";
}

// --- Accepted with a warning: one snippet per kind -------------------------------------------

TEST(DbcField, ExtendedIdWithoutTheFlagIsRead29Bit) {
  const std::string text =
      "BO_ 274923520 Ext: 8 XXX\n"
      " SG_ a : 0|8@1+ (1,0) [0|0] \"\" XXX\n"
      "CM_ BO_ 274923520 \"as written\";\n"
      "BA_DEF_ BO_ \"GenMsgCycleTime\" INT 0 1000;\n"
      "BA_ \"GenMsgCycleTime\" BO_ 2422407168 20;\n";  // the same message with the flag
  const Database db = parse_dbc(text, "field.dbc");
  ASSERT_EQ(db.messages.size(), 1U);
  const Message& m = db.messages[0];
  EXPECT_TRUE(m.extended);
  EXPECT_EQ(m.id, 0x10630000U);
  EXPECT_EQ(m.comment, "as written");
  EXPECT_EQ(m.cycle_time_ms, 20U);
  ASSERT_EQ(db.warnings.size(), 1U);
  EXPECT_EQ(db.warnings[0],
            "field.dbc:1:5: warning: BO_: id 274923520 (0x10630000) does not fit 11 bits and has "
            "no 0x80000000 flag: read as the 29-bit id 0x10630000");
  const CompiledDatabase codec(db);
  EXPECT_GE(codec.find(0x10630000, true), 0);
  EXPECT_LT(codec.find(0x10630000 & 0x7FF, false), 0);

  EXPECT_EQ(error_of(text, kRig),
            "field.dbc:1:5: BO_: id 274923520 (0x10630000) does not fit 11 bits and has no "
            "0x80000000 flag; a rig reads its DBC strictly: write a 29-bit id with bit 31 set "
            "(2422407168), or set dbc_lenient: true on the bus");
}

TEST(DbcField, NamesStartingWithADigitAreNames) {
  const std::string text =
      "BU_: 1ECU XXX\n"
      "BO_ 1275 2017_5: 8 XXX\n"
      " SG_ 0_COUNTER : 0|4@1+ (1,0) [0|15] \"\" 1ECU\n"
      " SG_ speed : 8|16@1+ (0.01,0) [0|655.35] \"km/h\" 1ECU\n"
      "CM_ SG_ 1275 0_COUNTER \"rolling\";\n"
      "VAL_ 1275 0_COUNTER 0 \"zero\" ;\n";
  for (const DbcReadSpec& options : {DbcReadSpec{}, kRig}) {  // a warning either way
    const Database db = parse_dbc(text, "field.dbc", options);
    ASSERT_EQ(db.messages.size(), 1U);
    EXPECT_EQ(db.messages[0].name, "2017_5");
    ASSERT_EQ(db.messages[0].signals.size(), 2U);
    const Signal& counter = db.messages[0].signals[0];
    EXPECT_EQ(counter.name, "0_COUNTER");
    EXPECT_EQ(counter.comment, "rolling");
    ASSERT_EQ(counter.value_descriptions.size(), 1U);
    EXPECT_EQ(counter.receivers, std::vector<std::string>{"1ECU"});
    EXPECT_EQ(db.nodes[0].name, "1ECU");
    // One warning per name, at its first appearance.
    ASSERT_EQ(db.warnings.size(), 3U);
    EXPECT_EQ(db.warnings[0],
              "field.dbc:1:6: warning: BU_: name '1ECU' starts with a digit (DBC names start with "
              "a letter or '_'); read as a name");
    EXPECT_EQ(db.warnings[1].substr(0, 50), "field.dbc:2:10: warning: BO_: name '2017_5' starts");
    EXPECT_EQ(db.warnings[2].substr(0, 44), "field.dbc:3:6: warning: BO_ '2017_5': name '");
  }
  // Numbers stay numbers: exponents, hex, and a length followed by its sender.
  const Database db =
      parse_dbc("BO_ 0x10 M: 8 X\n SG_ a : 0|8@1+ (1e2,0) [0|2.5E+4] \"\" X\n", "field.dbc");
  EXPECT_EQ(db.messages[0].id, 0x10U);
  EXPECT_EQ(db.messages[0].signals[0].factor, 100.0);
  EXPECT_EQ(db.messages[0].signals[0].maximum, 25000.0);
  EXPECT_TRUE(db.warnings.empty());
}

TEST(DbcField, BareMIsAnOrdinarySignal) {
  const std::string text =
      "BO_ 1 M: 8 X\n"
      " SG_ sel M : 0|8@1+ (1,0) [0|0] \"\" X\n"
      " SG_ v m : 8|8@1+ (1,0) [0|0] \"\" X\n";
  const Database db = parse_dbc(text, "field.dbc");
  const Signal& v = db.messages[0].signals[1];
  EXPECT_FALSE(v.mux_indicator.has_value());
  EXPECT_FALSE(v.multiplexed());
  ASSERT_EQ(db.warnings.size(), 1U);
  EXPECT_EQ(db.warnings[0],
            "field.dbc:3:8: warning: SG_ 'v': multiplexer indicator 'm' without the multiplexor "
            "value: read as an ordinary signal, in every frame whatever the multiplexor");
  // Decoded whatever the multiplexor says.
  const CompiledDatabase codec(db);
  const CompiledMessage& c = codec.messages()[0];
  const std::array<std::uint8_t, 8> frame{7, 42, 0, 0, 0, 0, 0, 0};
  std::vector<SignalValue> values(c.signals.size());
  (void)decode_message(c, frame, values);
  EXPECT_TRUE(values[1].present);
  EXPECT_EQ(values[1].physical, 42.0);

  EXPECT_EQ(error_of(text, kRig),
            "field.dbc:3:8: SG_ 'v': multiplexer indicator 'm' without the multiplexor value; a "
            "rig reads its DBC strictly: write m<value> (or nothing for an ordinary signal), or "
            "set dbc_lenient: true on the bus");
}

TEST(DbcField, SignalPastItsMessageIsLeftOut) {
  const std::string text =
      "BO_ 1 M: 2 X\n"
      " SG_ a : 0|8@1+ (1,0) [0|0] \"\" X\n"
      " SG_ b : 8|16@1+ (1,0) [0|0] \"\" X\n"
      " SG_ c : 8|8@1+ (1,0) [0|0] \"\" X\n";
  const Database db = parse_dbc(text, "field.dbc");
  ASSERT_EQ(db.messages[0].signals.size(), 2U);
  EXPECT_EQ(db.messages[0].signals[0].name, "a");
  EXPECT_EQ(db.messages[0].signals[1].name, "c");
  ASSERT_EQ(db.warnings.size(), 1U);
  EXPECT_EQ(db.warnings[0],
            "field.dbc:3:6: warning: SG_ 'b': bits 8..23 (Intel, LSB..MSB) need 3 bytes but BO_ "
            "'M' has 2: the signal left out (no frame of BO_ 'M' carries it)");
  EXPECT_NE(error_of(text, kRig).find("field.dbc:3:6: SG_ 'b': bits 8..23"), std::string::npos);
}

TEST(DbcField, CommentWithoutItsSemicolonEndsAtTheNextStatement) {
  const std::string text =
      "BO_ 1 M: 8 X\n"
      " SG_ a : 0|8@1+ (1,0) [0|0] \"\" X\n"
      "CM_ SG_ 1 a \"the comment\"\n"
      "BO_ 2 N: 8 X\n"
      "CM_ BO_ 2 \"last\"";
  for (const DbcReadSpec& options : {DbcReadSpec{}, kRig}) {  // a warning either way
    const Database db = parse_dbc(text, "field.dbc", options);
    ASSERT_EQ(db.messages.size(), 2U);
    EXPECT_EQ(db.messages[0].signals[0].comment, "the comment");
    EXPECT_EQ(db.messages[1].comment, "last");
    ASSERT_EQ(db.warnings.size(), 2U);
    EXPECT_EQ(db.warnings[0],
              "field.dbc:4:1: warning: CM_ at line 3: no ';' at its end; the comment ends before "
              "this statement");
    EXPECT_EQ(db.warnings[1],
              "field.dbc:5:17: warning: CM_ at line 5: no ';' at its end; the comment ends before "
              "this end of file");
  }
  // On the same line it is still an error: nothing says where the comment ends.
  EXPECT_EQ(error_of("CM_ \"x\" BO_ 1 M: 8 X\n", {}),
            "field.dbc:1:9: CM_: expected ';' at the end of the statement, got 'BO_'");
}

// --- Broken beyond reading: refused, or skipped under lenient ---------------------------------

struct Broken {
  std::string text;
  std::string error;                  // without lenient (the file is refused)
  std::vector<std::string> warnings;  // with lenient
  std::vector<std::string> messages;  // "name:signal,signal" left after lenient reading
};

std::vector<std::string> contents(const Database& db) {
  std::vector<std::string> out;
  for (const Message& m : db.messages) {
    std::string line = m.name + ":";
    for (const Signal& s : m.signals) line += (line.back() == ':' ? "" : ",") + s.name;
    out.push_back(line);
  }
  return out;
}

TEST(DbcField, LenientSkipsWhatCannotBeReadOneKindEach) {
  const std::string ok_message = "BO_ 2 N: 8 X\n SG_ b : 0|8@1+ (1,0) [0|0] \"\" X\n";
  const std::vector<Broken> cases{
      // An id that fits no frame format: the message and its signals are skipped.
      {"BO_ 536870912 M: 8 X\n SG_ a : 0|8@1+ (1,0) [0|0] \"\" X\n" + ok_message,
       "field.dbc:1:5: BO_: id 536870912 (0x20000000) fits neither 11 nor 29 bits (a 29-bit id is "
       "written with bit 31 set: 0x80000000 + id)",
       {"field.dbc:1:5: warning: BO_: id 536870912 (0x20000000) fits neither 11 nor 29 bits (a "
        "29-bit id is written with bit 31 set: 0x80000000 + id); the BO_ statement at line 1 "
        "skipped"},
       {"N:b"}},
      // A name no reading makes a name of.
      {ok_message + " SG_ 0-COUNTER : 8|8@1+ (1,0) [0|0] \"\" X\n SG_ c : 16|8@1+ (1,0) [0|0] "
                    "\"\" X\n",
       "field.dbc:3:6: BO_ 'N': expected the signal name after SG_, got '0'",
       {"field.dbc:3:6: warning: BO_ 'N': expected the signal name after SG_, got '0'; the SG_ at "
        "line 3 (in BO_ 'N') skipped"},
       {"N:b,c"}},
      // A multiplexer indicator that is none.
      {ok_message + " SG_ v mX : 8|8@1+ (1,0) [0|0] \"\" X\n",
       "field.dbc:3:8: SG_ 'v': expected the multiplexer indicator M, m<value> or m<value>M "
       "before ':', got 'mX'",
       {"field.dbc:3:8: warning: SG_ 'v': expected the multiplexer indicator M, m<value> or "
        "m<value>M before ':', got 'mX'; the SG_ at line 3 (in BO_ 'N') skipped"},
       {"N:b"}},
      // A signal no frame can carry, and one multiplexed by nothing (found by the checks).
      {ok_message + " SG_ a : 600|8@1+ (1,0) [0|0] \"\" X\n SG_ w m1 : 8|8@1+ (1,0) [0|0] \"\" X\n",
       "field.dbc:3:10: SG_ 'a': expected the start bit (0-511) after ':', got 600 (at most 511)",
       {"field.dbc:3:10: warning: SG_ 'a': expected the start bit (0-511) after ':', got 600 (at "
        "most 511); the SG_ at line 3 (in BO_ 'N') skipped",
        "field.dbc:4:6: warning: SG_ 'w': multiplexed (m1) but BO_ 'N' has no multiplexor signal "
        "(M); the signal skipped"},
       {"N:b"}},
      // Comments: unquoted text, a string never closed, a stray character.
      {ok_message + "CM_ SG_ 2 b text;\nBO_ 3 P: 8 X\nBU_: A $B\nCM_ \"abc\n",
       "field.dbc:5:8: unexpected character '$'",  // the file is read into tokens first
       {"field.dbc:3:13: warning: CM_ SG_: expected the comment string after the signal name, got "
        "'text'; the CM_ statement at line 3 skipped",
        "field.dbc:5:8: warning: expected a DBC keyword (VERSION, BU_, BO_, SG_, CM_, BA_DEF_, "
        "BA_, VAL_, ...), got '$'; everything up to the next statement skipped",
        "field.dbc:6:5: warning: CM_: expected a comment string, or BU_, BO_, SG_ or EV_ and its "
        "object, got '\"'; the CM_ statement at line 6 skipped"},
       {"N:b", "P:"}},
  };
  for (const Broken& c : cases) {
    EXPECT_EQ(error_of(c.text, {}), c.error) << c.text;
    const Database db = parse_dbc(c.text, "field.dbc", kLenient);
    EXPECT_EQ(db.warnings, c.warnings) << c.text;
    EXPECT_EQ(contents(db), c.messages) << c.text;
  }
}

TEST(DbcField, LenientKeepsTheRestOfAMultiplexedMessage) {
  // The multiplexor itself cannot be read: its dependants go with it, the rest stays.
  const std::string text =
      "BO_ 1 M: 8 X\n"
      " SG_ sel M : 0|8@1+ (1,0) [0|0] \"\" X\n"
      " SG_ x m1 : 8|8@1+ (1,0) [0|0] \"\" X\n"
      " SG_ plain : 16|8@1+ (1,0) [0|0] \"\" X\n"
      "SIG_VALTYPE_ 1 sel : 1;\n";
  EXPECT_EQ(error_of(text, {}),
            "field.dbc:5:22: SIG_VALTYPE_ 'sel': type 1 (IEEE float32) needs a 32-bit signal; its "
            "SG_ at line 2 has 8 bits");
  const Database db = parse_dbc(text, "field.dbc", kLenient);
  EXPECT_EQ(contents(db), std::vector<std::string>{"M:sel,x,plain"});
  ASSERT_EQ(db.warnings.size(), 1U);
  EXPECT_NE(db.warnings[0].find("the SIG_VALTYPE_ statement at line 5 skipped"), std::string::npos);

  const std::string mux_float =
      "BO_ 1 M: 8 X\n"
      " SG_ sel M : 0|32@1+ (1,0) [0|0] \"\" X\n"
      " SG_ x m1 : 32|8@1+ (1,0) [0|0] \"\" X\n"
      " SG_ plain : 40|8@1+ (1,0) [0|0] \"\" X\n"
      "SIG_VALTYPE_ 1 sel : 1;\n";
  const Database lenient = parse_dbc(mux_float, "field.dbc", kLenient);
  EXPECT_EQ(contents(lenient), std::vector<std::string>{"M:plain"});
  ASSERT_EQ(lenient.warnings.size(), 2U);
  EXPECT_EQ(lenient.warnings[0],
            "field.dbc:2:6: warning: SG_ 'sel': a multiplexor must be an integer signal, not a "
            "SIG_VALTYPE_ float; the signal skipped");
  EXPECT_EQ(lenient.warnings[1],
            "field.dbc:3:6: warning: SG_ 'x': multiplexed (m1) but BO_ 'M' has no multiplexor "
            "signal (M); the signal skipped");
}

TEST(DbcField, LenientSurvivesATruncatedFile) {
  const std::string text = "BO_ 1 M: 8 X\n SG_ a : 0|8@1+ (1,0) [0|0] \"\" X\n SG_ b : 8|8@1+ (1,";
  EXPECT_EQ(error_of(text, {}),
            "field.dbc:3:20: SG_ 'b': expected the offset after ',', got the end of the file");
  const Database db = parse_dbc(text, "field.dbc", kLenient);
  EXPECT_EQ(contents(db), std::vector<std::string>{"M:a"});
  EXPECT_EQ(db.warnings.size(), 1U);
}

}  // namespace
}  // namespace hil::io::can::dbc
