// Malformed DBC files → the exact error a user sees: file:line:column, the statement and
// object, what was expected and what was found. Columns are counted by hand in the comments.

#include <gtest/gtest.h>

#include <string>

#include "io/can/dbc/dbc_parser.hpp"

namespace hil::io::can::dbc {
namespace {

struct BadDbc {
  std::string text;
  std::string error;
};

constexpr const char* kMsgText = "BO_ 1 M: 8 X\n";  // line 1 of most cases
constexpr const char* kSigA8Text = " SG_ a : 0|8@1+ (1,0) [0|0] \"\" X\n";
constexpr const char* kMuxXText = " SG_ x M : 0|8@1+ (1,0) [0|0] \"\" X\n";

/// The error of `text` read as a rig reads its DBC (strictly; the command line accepts the
/// field's deviations with warnings: dbc_field_test.cpp).
std::string error_of(const std::string& text) {
  try {
    (void)parse_dbc(text, "bad.dbc", {.accept_deviations = false});
  } catch (const DbcError& e) {
    return e.what();
  }
  return "(no error)";
}

void expect_errors(const std::vector<BadDbc>& cases) {
  for (const BadDbc& c : cases) EXPECT_EQ(error_of(c.text), c.error) << c.text;
}

TEST(DbcErrors, SignalSyntax) {
  const std::string msg = kMsgText;
  const std::string sig_a8 = kSigA8Text;
  expect_errors({
      // " SG_ speed_fl : 0|16@2+": '@' is column 21.
      {msg + " SG_ speed_fl : 0|16@2+ (1,0) [0|0] \"\" X\n",
       "bad.dbc:2:21: SG_ 'speed_fl': expected '@0' or '@1' after the bit length, got '@2'"},
      {msg + " SG_ a : 0|16 (1,0) [0|0] \"\" X\n",
       "bad.dbc:2:15: SG_ 'a': expected '@0' or '@1' after the bit length, got '('"},
      // " SG_ a : 0|0@1+": the length '0' is column 12.
      {msg + " SG_ a : 0|0@1+ (1,0) [0|0] \"\" X\n",
       "bad.dbc:2:12: SG_ 'a': bit length 0; expected 1-64"},
      {msg + " SG_ a : 0|65@1+ (1,0) [0|0] \"\" X\n",
       "bad.dbc:2:12: SG_ 'a': expected the bit length (1-64) after '|', got 65 (at most 64)"},
      {msg + " SG_ a : 512|8@1+ (1,0) [0|0] \"\" X\n",
       "bad.dbc:2:10: SG_ 'a': expected the start bit (0-511) after ':', got 512 (at most 511)"},
      // " SG_ a : 0|8@1 (": '(' is column 16.
      {msg + " SG_ a : 0|8@1 (1,0) [0|0] \"\" X\n",
       "bad.dbc:2:16: SG_ 'a': expected '+' (unsigned) or '-' (signed) after the byte order, got "
       "'('"},
      // " SG_ a : 0|8@1+ (0,0)": the factor is column 18.
      {msg + " SG_ a : 0|8@1+ (0,0) [0|0] \"\" X\n",
       "bad.dbc:2:18: SG_ 'a': the factor must not be 0"},
      {msg + " SG_ a : 0|8@1+ (1e999,0) [0|0] \"\" X\n",
       "bad.dbc:2:18: SG_ 'a': expected the factor after '(', got 1e999 (not a finite number)"},
      {msg + " SG_ a : 0|8@1+ (1,0) 0|0] \"\" X\n",
       "bad.dbc:2:23: SG_ 'a': expected '[' and the range, e.g. [0|100], got '0'"},
      {msg + " SG_ a : 0|8@1+ (1,0) [0|0] X\n",
       "bad.dbc:2:29: SG_ 'a': expected the unit string (\"\" for none) after the range, got 'X'"},
      {msg + " SG_ a x1 : 0|8@1+ (1,0) [0|0] \"\" X\n",
       "bad.dbc:2:8: SG_ 'a': expected the multiplexer indicator M, m<value> or m<value>M before "
       "':', got 'x1'"},
      {sig_a8, "bad.dbc:1:2: SG_ outside a message: expected a BO_ line before it"},
  });
}

TEST(DbcErrors, MessageSyntaxAndIds) {
  const std::string msg = kMsgText;
  const std::string sig_a8 = kSigA8Text;
  expect_errors({
      {"BO_ 1 M 8 X\n", "bad.dbc:1:9: BO_ 'M': expected ':' after the message name, got '8'"},
      {"BO_ M: 8 X\n",
       "bad.dbc:1:5: BO_: expected the message id (decimal; bit 31 set for a 29-bit id), got 'M'"},
      {"BO_ 4096 M: 8 X\n",
       "bad.dbc:1:5: BO_: id 4096 (0x1000) does not fit 11 bits and has no 0x80000000 flag; a rig "
       "reads its DBC strictly: write a 29-bit id with bit 31 set (2147487744), or set "
       "dbc_lenient: "
       "true on the bus"},
      {"BO_ 536870912 M: 8 X\n",
       "bad.dbc:1:5: BO_: id 536870912 (0x20000000) fits neither 11 nor 29 bits (a 29-bit id is "
       "written with bit 31 set: 0x80000000 + id)"},
      {"BO_ 4294967295 M: 8 X\n",
       "bad.dbc:1:5: BO_: id 4294967295 (0xFFFFFFFF) is no 29-bit id: with bit 31 set it is at "
       "most 0x9FFFFFFF"},
      {"BO_ 1 M: 65 X\n",
       "bad.dbc:1:10: BO_ 'M': expected the message length in bytes (0-64), got 65 (at most 64)"},
      {msg + "BO_ 1 N: 8 X\n",
       "bad.dbc:2:5: BO_ 'N': duplicate message id 1; BO_ 'M' at line 1 has it already"},
      {msg + "BO_ 2 M: 8 X\n",
       "bad.dbc:2:1: BO_ 'M': duplicate message name; BO_ 1 at line 1 has it already"},
      {msg + sig_a8 + " SG_ a : 8|8@1+ (1,0) [0|0] \"\" X\n",
       "bad.dbc:3:6: SG_ 'a': duplicate signal name in BO_ 'M'"},
  });
}

TEST(DbcErrors, LexicalAndStatementLevel) {
  expect_errors({
      {"CM_ \"abc\n", "bad.dbc:1:5: string not terminated: expected a closing '\"'"},
      {"BU_: A $B\n", "bad.dbc:1:8: unexpected character '$'"},
      {"BU_:\x01\n", "bad.dbc:1:5: unexpected byte 0x01"},
      {"FOO_ 1;\n",
       "bad.dbc:1:1: expected a DBC keyword (VERSION, BU_, BO_, SG_, CM_, BA_DEF_, BA_, VAL_, "
       "...), got 'FOO_'"},
      {"VERSION 1\n",
       "bad.dbc:1:9: VERSION: expected the version string, e.g. VERSION \"1.0\", got '1'"},
      {"CM_ \"x\" BO_ 1 M: 8 X\n",
       "bad.dbc:1:9: CM_: expected ';' at the end of the statement, got 'BO_'"},
      {"EV_ a: 0 [0|1]\n",
       "bad.dbc:2:1: EV_: expected ';' at the end of the EV_ statement started at line 1, got the "
       "end of the file"},
  });
}

TEST(DbcErrors, SignalsBeyondTheMessage) {
  expect_errors({
      {"BO_ 1 M: 2 X\n SG_ a : 8|16@1+ (1,0) [0|0] \"\" X\n",
       "bad.dbc:2:6: SG_ 'a': bits 8..23 (Intel, LSB..MSB) need 3 bytes but BO_ 'M' has 2; a rig "
       "reads its DBC strictly: fix the message length or the signal, or set dbc_lenient: true on "
       "the bus"},
      // Motorola start 0 = the LSB of byte 0; a second bit continues at bit 15 (byte 1's MSB).
      {"BO_ 1 M: 1 X\n SG_ a : 0|2@0+ (1,0) [0|0] \"\" X\n",
       "bad.dbc:2:6: SG_ 'a': bits 0..15 (Motorola, MSB..LSB) need 2 bytes but BO_ 'M' has 1; a "
       "rig reads its DBC strictly: fix the message length or the signal, or set dbc_lenient: true "
       "on the bus"},
  });
}

TEST(DbcErrors, FloatSignals) {
  const std::string msg = kMsgText;
  const std::string sig_a8 = kSigA8Text;
  expect_errors({
      // "SIG_VALTYPE_ 1 a : 1;": the type is column 20.
      {msg + " SG_ a : 0|16@1+ (1,0) [0|0] \"\" X\nSIG_VALTYPE_ 1 a : 1;\n",
       "bad.dbc:3:20: SIG_VALTYPE_ 'a': type 1 (IEEE float32) needs a 32-bit signal; its SG_ at "
       "line 2 has 16 bits"},
      {msg + sig_a8 + "SIG_VALTYPE_ 1 a : 2;\n",
       "bad.dbc:3:20: SIG_VALTYPE_ 'a': type 2 (IEEE float64) needs a 64-bit signal; its SG_ at "
       "line 2 has 8 bits"},
      {msg + sig_a8 + "SIG_VALTYPE_ 1 a : 3;\n",
       "bad.dbc:3:20: SIG_VALTYPE_ 'a': expected the value type 0 (integer), 1 (IEEE float32) or "
       "2 (IEEE float64), got 3 (at most 2)"},
      {msg + " SG_ x M : 0|32@1+ (1,0) [0|0] \"\" X\n SG_ a m1 : 32|8@1+ (1,0) [0|0] \"\" X\n"
             "SIG_VALTYPE_ 1 x : 1;\n",
       "bad.dbc:2:6: SG_ 'x': a multiplexor must be an integer signal, not a SIG_VALTYPE_ float"},
  });
}

TEST(DbcErrors, Multiplexing) {
  const std::string msg = kMsgText;
  const std::string mux_x = kMuxXText;
  const std::string a_m1 = " SG_ a m1 : 8|8@1+ (1,0) [0|0] \"\" X\n";
  expect_errors({
      {msg + " SG_ a m1 : 0|8@1+ (1,0) [0|0] \"\" X\n",
       "bad.dbc:2:6: SG_ 'a': multiplexed (m1) but BO_ 'M' has no multiplexor signal (M)"},
      {msg + mux_x +
           " SG_ y M : 8|8@1+ (1,0) [0|0] \"\" X\n SG_ a m1 : 16|8@1+ (1,0) [0|0] \"\" X\n",
       "bad.dbc:4:6: SG_ 'a': BO_ 'M' has several multiplexors (x, y); expected an SG_MUL_VAL_ "
       "line that says which one selects it"},
      // "SG_MUL_VAL_ 1 a b 1-1;": 'b' is column 17.
      {msg + mux_x + a_m1 + " SG_ b : 16|8@1+ (1,0) [0|0] \"\" X\nSG_MUL_VAL_ 1 a b 1-1;\n",
       "bad.dbc:5:17: SG_MUL_VAL_ 'a': 'b' is not a multiplexor of message 'M' (expected a signal "
       "marked M or m<value>M)"},
      {msg + mux_x + a_m1 + "SG_MUL_VAL_ 1 a x 3-1;\n",
       "bad.dbc:4:19: SG_MUL_VAL_ 'a': range 3-1 is empty (low > high)"},
      {msg + mux_x + " SG_ a : 8|8@1+ (1,0) [0|0] \"\" X\nSG_MUL_VAL_ 1 a x 1-1;\n",
       "bad.dbc:4:15: SG_MUL_VAL_ 'a': signal 'a' has no m<value> multiplexer indicator in its SG_ "
       "at line 3"},
      {msg + " SG_ p m1M : 0|8@1+ (1,0) [0|0] \"\" X\n SG_ q m2M : 8|8@1+ (1,0) [0|0] \"\" X\n"
             "SG_MUL_VAL_ 1 p q 1-1;\nSG_MUL_VAL_ 1 q p 2-2;\n",
       "bad.dbc:2:6: SG_ 'p': its multiplexor chain loops back to itself"},
  });
}

TEST(DbcErrors, Attributes) {
  const std::string msg = kMsgText;
  const std::string int_def = "BA_DEF_ BO_ \"C\" INT 0 100;\n";
  const std::string enum_def = "BA_DEF_ BO_ \"E\" ENUM \"a\",\"b\";\n";
  expect_errors({
      // "BA_ \"C\" BO_ 1 \"text\";": the value is column 15.
      {int_def + msg + "BA_ \"C\" BO_ 1 \"text\";\n",
       "bad.dbc:3:15: BA_ \"C\": expected a number (the attribute is INT, HEX or FLOAT), got a "
       "string \"text\""},
      {int_def + msg + "BA_ \"C\" BO_ 1 1.5;\n",
       "bad.dbc:3:15: BA_ \"C\": expected an integer (the attribute is INT), got 1.5"},
      {enum_def + msg + "BA_ \"E\" BO_ 1 2;\n",
       R"(bad.dbc:3:15: BA_ "E": ENUM index 2 is not in 0..1 ("a", "b"))"},
      {enum_def + msg + "BA_ \"E\" BO_ 1 \"c\";\n",
       R"(bad.dbc:3:15: BA_ "E": expected one of "a", "b", got "c")"},
      {"BA_DEF_ BO_ \"S\" STRING;\nBA_DEF_DEF_ \"S\" 5;\n",
       "bad.dbc:2:17: BA_DEF_DEF_ \"S\": expected a string (the attribute is STRING), got '5'"},
      {"BA_DEF_ XX_ \"S\" STRING;\n",
       "bad.dbc:1:9: BA_DEF_: expected BU_, BO_, SG_, EV_ or the attribute name string, got 'XX_'"},
      {"BA_DEF_ \"S\" TEXT;\n",
       "bad.dbc:1:13: BA_DEF_ \"S\": expected the value type INT, HEX, FLOAT, STRING or ENUM, got "
       "'TEXT'"},
  });
}

}  // namespace
}  // namespace hil::io::can::dbc
