// Overlay semantics and source locations on a schema with every shape of field
// (tests/config/overlay_test.proto): the rules every future rig block inherits.

#include "config/rig/overlay.hpp"

#include <gtest/gtest.h>

#include <vector>

#include "config/text/source_map.hpp"
#include "config/text/text_layer.hpp"
#include "tests/config/overlay_test.pb.h"

namespace hil::config {
namespace {

using test::Tree;

/// Parses each text as a Tree (named layer0.pbtxt, layer1.pbtxt, ...), failing on errors.
std::vector<ParsedLayer> parse_all(std::vector<std::string> texts) {
  std::vector<ParsedLayer> layers;
  ConfigErrors errors;
  for (std::size_t i = 0; i < texts.size(); ++i) {
    layers.push_back(parse_layer(ConfigText{"layer" + std::to_string(i) + ".pbtxt", texts[i]},
                                 Tree::default_instance(), {}, errors));
  }
  EXPECT_TRUE(errors.empty()) << errors.front().to_string();
  return layers;
}

Tree merged(const std::vector<ParsedLayer>& layers) {
  Tree tree;
  for (const ParsedLayer& layer : layers) apply_overlay(layer.message(), tree);
  return tree;
}

SourceMap sources_of(const std::vector<ParsedLayer>& layers) {
  std::vector<const ParsedLayer*> pointers;
  for (const ParsedLayer& layer : layers) pointers.push_back(&layer);
  return SourceMap(std::move(pointers));
}

TEST(Overlay, ScalarItSetsReplacesAndOthersStay) {
  const auto layers = parse_all({"x: 1 leaf { a: 1 b: 2 }", "leaf { b: 3 }"});

  const Tree tree = merged(layers);

  EXPECT_EQ(tree.x(), 1);
  EXPECT_EQ(tree.leaf().a(), 1);
  EXPECT_EQ(tree.leaf().b(), 3);
}

TEST(Overlay, ListItSetsReplacesTheWholeList) {
  const auto layers = parse_all(
      {"numbers: [1, 2, 3] leaves { a: 1 } leaves { a: 2 }", "numbers: 9 leaves { b: 5 }"});

  const Tree tree = merged(layers);

  EXPECT_EQ(std::vector<int>(tree.numbers().begin(), tree.numbers().end()), std::vector<int>{9});
  ASSERT_EQ(tree.leaves_size(), 1);
  EXPECT_FALSE(tree.leaves(0).has_a());  // replaced, not merged element by element
  EXPECT_EQ(tree.leaves(0).b(), 5);
}

TEST(Overlay, ListItLeavesOutIsKept) {
  const auto layers = parse_all({"numbers: [1, 2]", "x: 4"});

  EXPECT_EQ(merged(layers).numbers_size(), 2);
}

TEST(Overlay, ListInsideAMergedBlockIsReplaced) {
  Tree base;
  base.mutable_leaf()->set_a(1);
  base.add_numbers(1);
  Tree overlay;
  overlay.add_numbers(2);
  overlay.add_numbers(3);

  apply_overlay(overlay, base);

  EXPECT_EQ(base.numbers_size(), 2);
  EXPECT_EQ(base.leaf().a(), 1);
}

TEST(Overlay, AnotherOneofMemberReplacesTheChoice) {
  const auto layers = parse_all({"left { a: 1 b: 2 }", "right { b: 3 }"});

  const Tree tree = merged(layers);

  EXPECT_FALSE(tree.has_left());
  EXPECT_FALSE(tree.right().has_a());
  EXPECT_EQ(tree.right().b(), 3);
}

TEST(Overlay, SameOneofMemberMergesFieldByField) {
  const auto layers = parse_all({"left { a: 1 b: 2 }", "left { b: 3 }"});

  const Tree tree = merged(layers);

  EXPECT_EQ(tree.left().a(), 1);
  EXPECT_EQ(tree.left().b(), 3);
}

TEST(SourceMap, PointsToTheLastLayerThatWroteTheValue) {
  const auto layers = parse_all({"x: 1\nleaf {\n  a: 1\n  b: 2\n}\n", "leaf {\n  b: 30\n}\n"});
  const SourceMap sources = sources_of(layers);

  const SourceLocation a = sources.locate("leaf.a");
  const SourceLocation b = sources.locate("leaf.b");

  EXPECT_EQ(a.file, "layer0.pbtxt");
  EXPECT_EQ(a.position, (TextPosition{3, 6}));
  EXPECT_EQ(b.file, "layer1.pbtxt");
  EXPECT_EQ(b.position, (TextPosition{2, 6}));
}

TEST(SourceMap, ElementOfAReplacedListPointsIntoTheOverlay) {
  const auto layers = parse_all({"leaves { a: 1 }\nleaves { a: 2 }\n", "x: 0\nleaves { a: 7 }\n"});
  const SourceMap sources = sources_of(layers);

  const SourceLocation first = sources.locate("leaves[0].a");

  EXPECT_EQ(first.file, "layer1.pbtxt");
  EXPECT_EQ(first.position, (TextPosition{2, 13}));
}

TEST(SourceMap, FieldNobodyWroteFallsBackToItsBlock) {
  const auto layers = parse_all({"x: 1\n  leaf { a: 1 }\n"});

  const SourceLocation b = sources_of(layers).locate("leaf.b");

  EXPECT_EQ(b.file, "layer0.pbtxt");
  EXPECT_EQ(b.position, (TextPosition{2, 3}));  // the block's name
}

TEST(SourceMap, WithoutFilesLocationsAreUnknown) {
  const ConfigError error = SourceMap{}.error("leaf.a", "too big");

  EXPECT_EQ(error.to_string(), "leaf.a: too big");
}

}  // namespace
}  // namespace hil::config
