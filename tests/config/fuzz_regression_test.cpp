// Inputs that crashed or hung the config parser (found by tests/fuzz/config_fuzz.cpp or by
// hand) now give clear errors: one named test per input, with the (minimised) input inline.

#include <gtest/gtest.h>

#include <string>

#include "config/rig/loader.hpp"

namespace hil::config {
namespace {

constexpr Machine kTwoCpus{.configured_cpus = 2};

LoadResult load_text(std::string name, std::string text) {
  const ConfigText layers[] = {{std::move(name), std::move(text)}};
  return load_rig_config_text(layers, kTwoCpus);
}

std::string repeat(std::string_view piece, int times) {
  std::string out;
  for (int i = 0; i < times; ++i) out += piece;
  return out;
}

// protobuf 3.21 skips unknown fields recursively without a depth limit: 100 000 nested
// unknown blocks overflowed the stack (SIGSEGV) before the nesting limit.
TEST(FuzzRegression, DeeplyNestedUnknownBlocksAreRefusedNotACrash) {
  const std::string text = "executive {" + repeat(" foo {", 100'000) + repeat(" }", 100'000) + " }";

  const LoadResult result = load_text("deep.pbtxt", text);

  ASSERT_EQ(result.errors.size(), 1U);
  EXPECT_EQ(result.errors[0].to_string(),
            "deep.pbtxt:1:203: blocks are nested more than 32 levels deep; expected a rig file "
            "(see config/rig.proto)");
}

TEST(FuzzRegression, NestingUpToTheLimitIsParsedNormally) {
  const std::string text = "executive {" + repeat(" foo {", 31) + repeat(" }", 31) + " }";

  const LoadResult result = load_text("deep.pbtxt", text);

  ASSERT_EQ(result.errors.size(), 1U);
  EXPECT_EQ(result.errors[0].field, "executive.foo");
}

}  // namespace
}  // namespace hil::config
