// The semantic checks that are warnings (the file still loads): overlapping signals in the same
// multiplexer branch, frame format oddities, ranges.

#include <gtest/gtest.h>

#include <string>

#include "io/can/dbc/dbc_parser.hpp"

namespace hil::io::can::dbc {
namespace {

std::vector<std::string> warnings_of(const std::string& text) {
  return parse_dbc(text, "w.dbc").warnings;
}

TEST(DbcChecks, OverlappingSignalsInTheSameFrameAreReported) {
  const auto w = warnings_of(
      "BO_ 1 M: 8 X\n"
      " SG_ a : 0|8@1+ (1,0) [0|0] \"\" X\n"
      " SG_ b : 4|8@1+ (1,0) [0|0] \"\" X\n"   // bits 4..11 overlap a's 4..7
      " SG_ c : 15|8@0+ (1,0) [0|0] \"\" X\n"  // Motorola byte 1: overlaps b's bits 8..11
      " SG_ d : 16|8@1+ (1,0) [0|0] \"\" X\n");
  ASSERT_EQ(w.size(), 2U);
  EXPECT_EQ(
      w[0],
      "w.dbc:3:6: warning: SG_ 'b' overlaps SG_ 'a' in BO_ 'M' (both can be in the same frame)");
  EXPECT_EQ(
      w[1],
      "w.dbc:4:6: warning: SG_ 'c' overlaps SG_ 'b' in BO_ 'M' (both can be in the same frame)");
}

TEST(DbcChecks, SignalsOfDifferentMultiplexerBranchesMayShareBits) {
  const auto w = warnings_of(
      "BO_ 1 M: 8 X\n"
      " SG_ mux M : 0|8@1+ (1,0) [0|0] \"\" X\n"
      " SG_ a m0 : 8|16@1+ (1,0) [0|0] \"\" X\n"
      " SG_ b m1 : 8|16@1+ (1,0) [0|0] \"\" X\n"
      " SG_ c m1 : 16|8@1+ (1,0) [0|0] \"\" X\n"  // same branch as b: overlaps
      " SG_ d : 8|1@1+ (1,0) [0|0] \"\" X\n");    // not multiplexed: overlaps a and b
  ASSERT_EQ(w.size(), 3U);
  EXPECT_NE(w[0].find("SG_ 'c' overlaps SG_ 'b'"), std::string::npos) << w[0];
  EXPECT_NE(w[1].find("SG_ 'd' overlaps SG_ 'a'"), std::string::npos) << w[1];
  EXPECT_NE(w[2].find("SG_ 'd' overlaps SG_ 'b'"), std::string::npos) << w[2];
}

TEST(DbcChecks, ExtendedMultiplexingRangesAndChainsDecideExclusiveness) {
  const auto w = warnings_of(
      "BO_ 1 M: 8 X\n"
      " SG_ m1 M : 0|8@1+ (1,0) [0|0] \"\" X\n"
      " SG_ m2 m1M : 8|8@1+ (1,0) [0|0] \"\" X\n"
      " SG_ a m0 : 16|8@1+ (1,0) [0|0] \"\" X\n"
      " SG_ b m0 : 16|8@1+ (1,0) [0|0] \"\" X\n"
      " SG_ c m2 : 8|8@1+ (1,0) [0|0] \"\" X\n"
      "SG_MUL_VAL_ 1 m2 m1 1-1;\n"
      "SG_MUL_VAL_ 1 a m2 0-4;\n"
      "SG_MUL_VAL_ 1 b m2 5-9, 12-12;\n"  // disjoint from a's 0-4: exclusive
      "SG_MUL_VAL_ 1 c m1 2-3;\n");       // m1 2..3 excludes m2 (m1 = 1) and everything under it
  EXPECT_TRUE(w.empty()) << w.front();
  const auto overlapping = warnings_of(
      "BO_ 1 M: 8 X\n"
      " SG_ m1 M : 0|8@1+ (1,0) [0|0] \"\" X\n"
      " SG_ a m0 : 8|8@1+ (1,0) [0|0] \"\" X\n"
      " SG_ b m0 : 8|8@1+ (1,0) [0|0] \"\" X\n"
      "SG_MUL_VAL_ 1 a m1 0-4;\n"
      "SG_MUL_VAL_ 1 b m1 4-6;\n");  // both present when m1 = 4
  ASSERT_EQ(overlapping.size(), 1U);
  EXPECT_NE(overlapping[0].find("SG_ 'b' overlaps SG_ 'a'"), std::string::npos);
}

TEST(DbcChecks, FrameFormatWarnings) {
  auto w = warnings_of("BO_ 1 Big: 16 X\n");
  ASSERT_EQ(w.size(), 1U);
  EXPECT_EQ(w[0],
            "w.dbc:1:1: warning: BO_ 'Big': 16 bytes but VFrameFormat is not StandardCAN_FD "
            "or ExtendedCAN_FD; sent as a CAN FD frame");
  const Database db = parse_dbc("BO_ 1 Big: 16 X\n", "w.dbc");
  EXPECT_TRUE(db.messages[0].fd);

  w = warnings_of(
      "BA_DEF_ BO_ \"VFrameFormat\" ENUM \"StandardCAN\",\"ExtendedCAN\",\"StandardCAN_FD\";\n"
      "BO_ 1 Odd: 10 X\n"
      "BA_ \"VFrameFormat\" BO_ 1 2;\n"
      "BO_ 2 Ext: 8 X\n"
      "BA_ \"VFrameFormat\" BO_ 2 1;\n");
  ASSERT_EQ(w.size(), 2U);
  EXPECT_EQ(w[0],
            "w.dbc:2:1: warning: BO_ 'Odd': 10 bytes is no CAN FD length; frames carry 12 bytes");
  EXPECT_EQ(w[1],
            "w.dbc:4:1: warning: BO_ 'Ext': VFrameFormat ExtendedCAN but the id is 11-bit "
            "(bit 31 of the BO_ id decides)");
}

TEST(DbcChecks, RangeAndMultiplexorValueWarnings) {
  const auto w = warnings_of(
      "BO_ 1 M: 8 X\n"
      " SG_ mux M : 0|2@1+ (1,0) [0|3] \"\" X\n"
      " SG_ a m7 : 8|8@1+ (1,0) [10|5] \"\" X\n");
  ASSERT_EQ(w.size(), 2U);
  EXPECT_EQ(w[0],
            "w.dbc:3:6: warning: SG_ 'a': minimum 10 is above maximum 5; no range check on encode");
  EXPECT_EQ(w[1],
            "w.dbc:3:6: warning: SG_ 'a': multiplexor value 7 cannot occur in the 2-bit "
            "multiplexor 'mux'");
}

TEST(DbcChecks, DuplicateNodesAndRedefinedAttributes) {
  const auto w = warnings_of(
      "BU_: A B A\n"
      "BA_DEF_ \"X\" INT 0 1;\n"
      "BA_DEF_ \"X\" INT 0 2;\n"
      "BA_ \"X\" 5;\n");
  ASSERT_EQ(w.size(), 3U);
  EXPECT_EQ(w[0], "w.dbc:1:10: warning: BU_: node 'A' is listed twice");
  EXPECT_EQ(w[1],
            "w.dbc:3:9: warning: BA_DEF_ \"X\": defined again (first at line 2); the new "
            "definition wins");
  EXPECT_EQ(w[2], "w.dbc:4:9: warning: BA_ \"X\": value 5 is outside the BA_DEF_ range [0, 2]");
}

}  // namespace
}  // namespace hil::io::can::dbc
