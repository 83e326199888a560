// Loading rig files: defaults, overlays, and errors that name file:line:column, the field
// and what was expected.

#include "config/rig/loader.hpp"
#include "config/rig/rig_document.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tests/config/loader_fixture.hpp"

namespace hil::config {
namespace {

using testing::Errors;
using testing::kFourCpus;
using testing::LoaderTest;

TEST_F(LoaderTest, EmptyFileGivesTheDocumentedDefaults) {
  const LoadResult result = load("");

  ASSERT_TRUE(result.ok()) << ::testing::PrintToString(messages(result));
  const RigSpec& settings = *result.settings;
  EXPECT_EQ(settings.executive.period, 250 * rt::kMicrosecond);
  EXPECT_EQ(settings.executive.overrun.kind, rt::OverrunKind::skip);
  EXPECT_EQ(settings.rt.priority, 80);
  EXPECT_FALSE(settings.rt.cpu.has_value());
  EXPECT_TRUE(settings.rt.lock_memory);
  EXPECT_TRUE(settings.rt.hold_dma_latency);
  EXPECT_EQ(settings.sources, std::vector<std::string>{(dir_.path() / "base.pbtxt").string()});
}

TEST_F(LoaderTest, FileOfOnlyCommentsGivesTheDefaults) {
  const LoadResult result = load("# nothing to change yet\n\n");

  ASSERT_TRUE(result.ok());
  EXPECT_EQ(result.settings->executive.period, 250 * rt::kMicrosecond);
}

TEST_F(LoaderTest, ReadsEveryExecutiveSetting) {
  const LoadResult result = load(R"(
    executive {
      period_us: 1000
      priority: 0
      cpu: 3
      lock_memory: false
      hold_dma_latency: false
      stop_after { overruns: 3 window_ticks: 50 }
    })");

  ASSERT_TRUE(result.ok()) << ::testing::PrintToString(messages(result));
  const RigSpec& settings = *result.settings;
  EXPECT_EQ(settings.executive.period, rt::kMillisecond);
  EXPECT_EQ(settings.executive.overrun.kind, rt::OverrunKind::stop_after);
  EXPECT_EQ(settings.executive.overrun.stop_after_overruns, 3U);
  EXPECT_EQ(settings.executive.overrun.stop_after_window_ticks, 50);
  EXPECT_EQ(settings.rt.priority, 0);
  EXPECT_EQ(settings.rt.cpu, 3);
  EXPECT_FALSE(settings.rt.lock_memory);
  EXPECT_FALSE(settings.rt.hold_dma_latency);
}

TEST_F(LoaderTest, OverlayReplacesTheFieldsItSetsAndKeepsTheOthers) {
  const LoadResult result =
      load("executive { period_us: 500 priority: 70 cpu: 1 }", {"executive { period_us: 100 }"});

  ASSERT_TRUE(result.ok()) << ::testing::PrintToString(messages(result));
  EXPECT_EQ(result.settings->executive.period, 100 * rt::kMicrosecond);
  EXPECT_EQ(result.settings->rt.priority, 70);
  EXPECT_EQ(result.settings->rt.cpu, 1);
  EXPECT_EQ(result.settings->sources.size(), 2U);
}

TEST_F(LoaderTest, LaterOverlaysWin) {
  const LoadResult result = load("executive { period_us: 500 }",
                                 {"executive { period_us: 100 }", "executive { period_us: 200 }"});

  ASSERT_TRUE(result.ok());
  EXPECT_EQ(result.settings->executive.period, 200 * rt::kMicrosecond);
}

TEST_F(LoaderTest, OverlayChoosingAnotherOverrunPolicyReplacesThePolicy) {
  const LoadResult result = load("executive { stop_after { overruns: 5 window_ticks: 100 } }",
                                 {"executive { catch_up { max_ticks: 2 } }"});

  ASSERT_TRUE(result.ok()) << ::testing::PrintToString(messages(result));
  EXPECT_EQ(result.settings->executive.overrun.kind, rt::OverrunKind::catch_up);
  EXPECT_EQ(result.settings->executive.overrun.catch_up_max, 2U);
  EXPECT_EQ(rig_text(*result.settings).find("stop_after"), std::string::npos);  // replaced
}

TEST_F(LoaderTest, OverlayOfTheSamePolicyChangesOnlyWhatItSets) {
  const LoadResult result = load("executive { stop_after { overruns: 5 window_ticks: 100 } }",
                                 {"executive { stop_after { overruns: 7 } }"});

  ASSERT_TRUE(result.ok());
  EXPECT_EQ(result.settings->executive.overrun.stop_after_overruns, 7U);
  EXPECT_EQ(result.settings->executive.overrun.stop_after_window_ticks, 100);
}

TEST_F(LoaderTest, SyntaxErrorNamesLineColumnAndField) {
  EXPECT_EQ(load_errors("executive {\n  period_us 250\n}\n"),
            Errors{"base.pbtxt:2:13: executive.period_us: expected \":\", found \"250\""});
}

TEST_F(LoaderTest, UnclosedBlockIsReportedAtTheEndOfTheFile) {
  EXPECT_EQ(load_errors("executive {\n  period_us: 250\n"),
            Errors{"base.pbtxt:3:1: executive: the file ends inside this block; expected a "
                   "closing }"});
}

TEST_F(LoaderTest, UnknownFieldIsReportedAtItsNameWithASuggestion) {
  EXPECT_EQ(load_errors("executive {\n  period: 250\n}\n"),
            Errors{"base.pbtxt:2:3: executive.period: unknown field \"period\"; did you mean "
                   "\"period_us\"?"});
}

TEST_F(LoaderTest, UnknownFieldWithoutCloseMatchListsTheKnownFields) {
  EXPECT_EQ(load_errors("executive { speed: 1 }"),
            Errors{"base.pbtxt:1:13: executive.speed: unknown field \"speed\"; expected one of: "
                   "period_us, priority, cpu, lock_memory, hold_dma_latency, skip, catch_up, "
                   "stop_after"});
}

TEST_F(LoaderTest, OutOfRangeValueInTheBaseIsReportedAtTheValue) {
  EXPECT_EQ(load_errors("executive {\n  period_us: 20\n}\n"),
            Errors{"base.pbtxt:2:14: executive.period_us: 20 is out of range; expected "
                   "50..100000 (microseconds)"});
}

TEST_F(LoaderTest, OutOfRangeValueSetByAnOverlayIsReportedInTheOverlay) {
  EXPECT_EQ(load_errors("executive {\n  period_us: 250\n  catch_up { max_ticks: 4 }\n}\n",
                        {"# too fast\nexecutive {\n  period_us: 20\n}\n",
                         "executive {\n  catch_up {\n    max_ticks: 0\n  }\n}\n"}),
            (Errors{"overlay1.pbtxt:3:14: executive.period_us: 20 is out of range; expected "
                    "50..100000 (microseconds)",
                    "overlay2.pbtxt:3:16: executive.catch_up.max_ticks: 0 is out of range; "
                    "expected 1..1000 (late ticks run in a row)"}));
}

TEST_F(LoaderTest, WrongTypeSaysWhatWasExpected) {
  EXPECT_EQ(load_errors("executive {\n  period_us: \"abc\"\n}\n"),
            Errors{"base.pbtxt:2:14: executive.period_us: \"abc\" is not an integer; expected "
                   "50..100000 (microseconds)"});
  EXPECT_EQ(load_errors("executive {\n  period_us: abc\n}\n"),
            Errors{"base.pbtxt:2:14: executive.period_us: abc is not an integer; expected "
                   "50..100000 (microseconds)"});
  EXPECT_EQ(load_errors("executive { lock_memory: yes }"),
            Errors{"base.pbtxt:1:26: executive.lock_memory: invalid value for boolean field "
                   "\"lock_memory\". Value: \"yes\"; expected true or false"});
}

TEST_F(LoaderTest, NegativeValueForAnUnsignedFieldSaysSo) {
  EXPECT_EQ(load_errors("executive { priority: -1 }"),
            Errors{"base.pbtxt:1:23: executive.priority: negative values are not allowed; "
                   "expected 0..99 (SCHED_FIFO priority; 0 = normal scheduling)"});
}

TEST_F(LoaderTest, ValueTooLargeForItsTypeIsOutOfRange) {
  EXPECT_EQ(load_errors("executive { period_us: 99999999999 }"),
            Errors{"base.pbtxt:1:24: executive.period_us: 99999999999 is out of range; "
                   "expected 50..100000 (microseconds)"});
}

TEST_F(LoaderTest, ColumnsCountATabAsOneCharacter) {
  EXPECT_EQ(load_errors("executive {\n\tperiod_us: 20\n}\n"),
            Errors{"base.pbtxt:2:13: executive.period_us: 20 is out of range; expected "
                   "50..100000 (microseconds)"});
}

TEST_F(LoaderTest, FieldSetTwiceInOneFileIsAnError) {
  EXPECT_EQ(load_errors("executive {\n  period_us: 100\n  period_us: 200\n}\n"),
            Errors{"base.pbtxt:3:3: executive.period_us: set more than once in this file; it "
                   "takes a single value"});
}

TEST_F(LoaderTest, TwoOverrunPoliciesInOneFileAreAnError) {
  EXPECT_EQ(load_errors("executive {\n  skip {}\n  catch_up {}\n}\n"),
            Errors{"base.pbtxt:3:3: executive.catch_up: only one member of oneof "
                   "\"overrun_policy\" can be set per file; \"skip\" is already set"});
}

TEST_F(LoaderTest, CpuBeyondTheMachineSaysHowManyCpusThereAre) {
  EXPECT_EQ(load_errors("executive { cpu: 4 }"),
            Errors{"base.pbtxt:1:18: executive.cpu: 4 is out of range; expected 0..3 (CPU "
                   "index; this machine has 4 CPUs configured, sysconf(_SC_NPROCESSORS_CONF); "
                   "leave cpu out for no pinning)"});
}

TEST_F(LoaderTest, StopAfterWindowShorterThanOverrunsIsAnError) {
  EXPECT_EQ(load_errors("executive {\n  stop_after { window_ticks: 5 }\n}\n"),
            Errors{"base.pbtxt:2:30: executive.stop_after.window_ticks: a window of 5 ticks "
                   "cannot hold 10 overruns (the default); expected window_ticks >= overruns"});
}

TEST_F(LoaderTest, EveryErrorIsReportedParseErrorsFirst) {
  const Errors errors = load_errors(
      "executive {\n"
      "  period_us: 20\n"
      "  prio: 80\n"
      "  cpu: 64\n"
      "  lock_mem: true\n"
      "}\n",
      {"executive { period_us: 30 }", "executive {\n  catch_up { max_ticks: 1.5 }\n}\n"});

  EXPECT_EQ(errors,
            (Errors{
                "base.pbtxt:3:3: executive.prio: unknown field \"prio\"; did you mean "
                "\"priority\"?",
                "base.pbtxt:5:3: executive.lock_mem: unknown field \"lock_mem\"; did you mean "
                "\"lock_memory\"?",
                "overlay2.pbtxt:2:25: executive.catch_up.max_ticks: 1.5 is not an integer; "
                "expected 1..1000 (late ticks run in a row)",
                "overlay1.pbtxt:1:24: executive.period_us: 30 is out of range; expected "
                "50..100000 (microseconds)",
                "base.pbtxt:4:8: executive.cpu: 64 is out of range; expected 0..3 (CPU index; "
                "this machine has 4 CPUs configured, sysconf(_SC_NPROCESSORS_CONF); leave cpu "
                "out for no pinning)",
            }));
}

TEST_F(LoaderTest, MissingFileIsNamedWithTheReason) {
  const std::vector<std::filesystem::path> overlays{dir_.path() / "missing_overlay.pbtxt"};

  const LoadResult result = load_rig_config(dir_.path() / "missing.pbtxt", overlays, kFourCpus);

  EXPECT_FALSE(result.ok());
  EXPECT_EQ(messages(result),
            (Errors{"missing.pbtxt: cannot read the file: No such file or directory",
                    "missing_overlay.pbtxt: cannot read the file: No such file or directory"}));
}

TEST_F(LoaderTest, MissingOverlayStillReportsTheBaseFileErrors) {
  const auto base = dir_.write("base.pbtxt", "executive { perod_us: 100 }");
  const std::vector<std::filesystem::path> overlays{dir_.path() / "missing.pbtxt"};

  const LoadResult result = load_rig_config(base, overlays, kFourCpus);

  EXPECT_EQ(messages(result),
            (Errors{"base.pbtxt:1:13: executive.perod_us: unknown field \"perod_us\"; did you "
                    "mean \"period_us\"?",
                    "missing.pbtxt: cannot read the file: No such file or directory"}));
}

TEST_F(LoaderTest, DirectoryIsNotAConfigFile) {
  const LoadResult result = load_rig_config(dir_.path(), {}, kFourCpus);

  ASSERT_EQ(result.errors.size(), 1U);
  EXPECT_EQ(result.errors[0].to_string(),
            dir_.path().string() + ": cannot read the file: Is a directory");
}

TEST_F(LoaderTest, TextLoaderNamesTheTextsAsGiven) {
  const ConfigText layers[] = {{"rig.pbtxt", "executive {\n  period_us: 20\n}\n"}};

  const LoadResult result = load_rig_config_text(layers, kFourCpus);

  ASSERT_EQ(result.errors.size(), 1U);
  EXPECT_EQ(result.errors[0].to_string(),
            "rig.pbtxt:2:14: executive.period_us: 20 is out of range; expected 50..100000 "
            "(microseconds)");
}

TEST_F(LoaderTest, ManyErrorsInOneFileAreCappedWithACount) {
  std::string text = "executive {\n";
  for (std::size_t i = 0; i < kMaxErrorsPerFile + 10; ++i) text += "  nonsense: 1\n";
  text += "}\n";

  const Errors errors = load_errors(text);

  ASSERT_EQ(errors.size(), kMaxErrorsPerFile + 1);
  EXPECT_EQ(errors.back(), "base.pbtxt: 10 more errors not shown");
}

TEST_F(LoaderTest, HugeInputIsRefusedBeforeParsing) {
  const ConfigText layers[] = {{"huge.pbtxt", std::string(kMaxConfigBytes + 1, '#')}};

  const LoadResult result = load_rig_config_text(layers, kFourCpus);

  ASSERT_EQ(result.errors.size(), 1U);
  EXPECT_EQ(result.errors[0].to_string(),
            "huge.pbtxt: the file is too large (16777217 bytes); expected at most 16777216 bytes");
}

}  // namespace
}  // namespace hil::config
